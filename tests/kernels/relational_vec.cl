// Relational built-ins on vectors: comparisons give -1 (all bits) per true lane and 0
// per false lane, isnan/isinf/signbit on float4 likewise, while the scalar forms give 1;
// any/all test the most significant bit.
__kernel void relational_vec(__global const float4 *f, __global const float4 *g,
                             __global int4 *out, __global int *sout)
{
    size_t i = get_global_id(0);
    float4 x = f[i], y = g[i];
    x.w = (i % 3 == 0) ? NAN : x.w;
    x.z = (i % 4 == 1) ? -INFINITY : x.z;
    int4 lt = x < y;
    out[4 * i] = lt;
    out[4 * i + 1] = isnan(x) | (isinf(x) & (int4)(0x0f0));
    out[4 * i + 2] = signbit(x) + isequal(x, x) * 2;
    out[4 * i + 3] = isgreater(x, y) ^ islessequal(x, y);
    sout[2 * i] = any(lt) + all(lt) * 10 + any(isnan(x)) * 100 + all((int4)(-1, -1, -1, 1)) * 1000;
    sout[2 * i + 1] = isnan(x.w) * 4 + (x.x < y.x) * 2 + signbit(x.x);
}
