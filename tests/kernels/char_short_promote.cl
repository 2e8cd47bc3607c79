// char and short arithmetic: operands promote to int before the operation, results
// wrap or sign-extend when stored back, unsigned char compares after promotion, and
// a short product that overflows 16 bits is exact in int.
__kernel void char_short_promote(__global const char *c, __global const short *s,
                                 __global int *out, __global char *cout, __global ushort *uout)
{
    size_t i = get_global_id(0);
    char a = c[i], b = c[i + 1];
    short x = s[i], y = s[i + 1];
    out[4 * i] = a * b;                       /* int product, no wrap */
    out[4 * i + 1] = x * y;                   /* exact in int */
    uchar ua = (uchar)a;
    out[4 * i + 2] = (ua > 127) + (a < 0) * 10 + (ua >> 4) * 100;
    out[4 * i + 3] = (short)(x * y) + (x >> 3);
    cout[i] = (char)(a + b);                  /* wraps when stored */
    uout[i] = (ushort)(x - y) + (ushort)(~a);
}
