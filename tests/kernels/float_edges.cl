// Float edge cases: subnormal results of * and /, -0.0 from a product and its sign
// through 1/x, inf - inf = NaN, fmin/fmax returning the number when one side is NaN,
// -0 + +0 = +0, and copysign/fabs on subnormals. (NaN bit patterns differ between
// targets, so no NaN is stored as a result.)
#pragma OPENCL FP_CONTRACT OFF
__kernel void float_edges(__global const float *x, __global float *out, __global uint *bits)
{
    size_t i = get_global_id(0);
    float v = x[i];
    float tiny = v * 1e-40f;                  /* subnormal for |v| around 1..100 */
    out[8 * i] = tiny;
    out[8 * i + 1] = tiny / 3.0f;
    out[8 * i + 2] = fmin(v, NAN);
    out[8 * i + 3] = fmax(NAN, -v);
    out[8 * i + 4] = 1.0f / (v * -0.0f);      /* -inf for v > 0 */
    out[8 * i + 5] = copysign(fabs(tiny), -1.0f);
    out[8 * i + 6] = fmax((v * INFINITY) - INFINITY, (float)i);
    out[8 * i + 7] = tiny * 1e30f;            /* back to normal: exact bits expected */
    bits[2 * i] = as_uint(v * -0.0f) ^ as_uint(-0.0f + 0.0f * v);
    bits[2 * i + 1] = as_uint(tiny - tiny) + (isnan((v * INFINITY) - INFINITY) ? 1u : 0u);
}
