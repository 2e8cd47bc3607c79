// mul_hi, mad_hi, mul24 and mad24 at every scalar width the opt stage spells as plain
// arithmetic (char to int, signed and unsigned), next to the 64-bit product that mul_hi
// of two ints shares; the first 64 work-items take every pair of eight edge values.
__constant int EDGES[8] = {(int)0x80000000, -1, 0, 1, 0x7fffffff, 0x80, 0x7fff, -32768};

__kernel void mul_hi_widths(__global const int *a, __global const int *b, __global int *out,
                            __global long *lout)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    if (i < 64) {
        x = EDGES[i % 8];
        y = EDGES[i / 8];
    }
    out[8 * i] = mul_hi((char)x, (char)y);
    out[8 * i + 1] = mul_hi((uchar)x, (uchar)y);
    out[8 * i + 2] = mul_hi((short)x, (short)y);
    out[8 * i + 3] = mul_hi((ushort)x, (ushort)y);
    out[8 * i + 4] = mul_hi(x, y);
    out[8 * i + 5] = (int)mul_hi((uint)x, (uint)y);
    out[8 * i + 6] = mad_hi(x, y, (int)i);
    out[8 * i + 7] = mad24(x >> 9, y >> 9, x) ^ (int)mul24((uint)x & 0xFFFFFFu, (uint)y & 0xFFFFu);
    lout[i] = (long)x * (long)y;
}
