// 8-lane vectors: int8 and float8 arithmetic, .lo/.hi/.even/.odd halves, and vector
// literals built from mixed scalar and vector parts.
#pragma OPENCL FP_CONTRACT OFF
__kernel void vec8_arith(__global const int8 *a, __global const float8 *f,
                         __global int8 *iout, __global float8 *fout)
{
    size_t i = get_global_id(0);
    int8 x = a[i];
    int8 y = (int8)(x.lo, x.hi * 2);                 /* two int4 parts */
    int8 z = (int8)(1, x.s12, (int2)(7, -7), x.s5, 100, x.s7);   /* mixed parts */
    iout[2 * i] = y + z * 3 - (x >> 1);
    iout[2 * i + 1] = (int8)(x.even, x.odd);
    float8 g = f[i];
    float4 s = g.lo + g.hi;
    fout[i] = (float8)(s * 0.5f, g.odd - g.even);
}
