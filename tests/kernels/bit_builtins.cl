// Integer built-ins: clz, popcount, rotate (left, count modulo width), upsample,
// mad_sat, add_sat, sub_sat, hadd, rhadd, abs, abs_diff and mul24-free mad_hi.
__kernel void bit_builtins(__global const int *a, __global const int *b, __global int *out,
                           __global uint *uout, __global long *lout, __global short *sout)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    uint ux = (uint)x;
    out[8 * i] = clz(x);
    out[8 * i + 1] = popcount(x);
    out[8 * i + 2] = rotate(x, y);
    out[8 * i + 3] = mad_sat(x, y, x);
    out[8 * i + 4] = add_sat(x, y);
    out[8 * i + 5] = sub_sat(x, y);
    out[8 * i + 6] = hadd(x, y);
    out[8 * i + 7] = rhadd(x, y);
    uout[4 * i] = abs(x);
    uout[4 * i + 1] = abs_diff(x, y);
    uout[4 * i + 2] = rotate(ux, (uint)y + 32u);
    uout[4 * i + 3] = mad_hi(ux, (uint)y, 12345u);
    lout[i] = upsample(x, (uint)y);
    sout[2 * i] = upsample((char)x, (uchar)y);
    sout[2 * i + 1] = add_sat((short)x, (short)y);
}
