// 64-bit integers: long/ulong multiply that wraps, mul_hi (signed and unsigned),
// division, shifts across the 32-bit boundary and mixing int with long.
__kernel void long_arith(__global const long *a, __global const ulong *b, __global long *out,
                         __global ulong *uout)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i];
    out[4 * i] = x * 6364136223846793005L + 1442695040888963407L;   /* wraps */
    out[4 * i + 1] = mul_hi(x, (long)y);
    out[4 * i + 2] = x / ((long)(y >> 40) | 1L);
    out[4 * i + 3] = (x << 33) ^ (x >> 7) ^ (long)(int)x;
    uout[2 * i] = mul_hi(y, (ulong)x);
    uout[2 * i + 1] = (y >> 32) * (y & 0xffffffffUL) + (ulong)(uint)i;
}
