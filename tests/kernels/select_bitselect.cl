// select with a scalar condition (non-zero) and with vector conditions (the most
// significant bit of each lane), bitselect on integers and on float bit patterns.
__kernel void select_bitselect(__global const int4 *a, __global const int4 *b,
                               __global const float4 *f, __global int4 *out,
                               __global float4 *fout, __global int *sout)
{
    size_t i = get_global_id(0);
    int4 x = a[i], y = b[i];
    out[3 * i] = select(x, y, x < y);              /* lane-wise maximum */
    out[3 * i + 1] = select(x, y, (int4)(1, -1, 0x40000000, (int)0x80000000));  /* MSB only */
    out[3 * i + 2] = bitselect(x, y, (int4)(0x0000ffff));
    float4 g = f[i];
    fout[i] = bitselect(g, -g, as_float4((uint4)(0x80000000u)));   /* -g's sign: negate */
    sout[i] = select(x.x, y.x, (int)(i & 1)) + select(1, 2, x.y > 0);
}
