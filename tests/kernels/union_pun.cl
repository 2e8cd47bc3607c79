// Unions: reading a float's bits through a uint member, a 32-bit word through a
// uchar[4] member (little-endian byte order), and writing one member then another.
typedef union { float f; uint u; uchar b[4]; } word_t;

__kernel void union_pun(__global const float *in, __global uint *bits, __global uchar *bytes,
                        __global float *back)
{
    size_t i = get_global_id(0);
    word_t w;
    w.f = in[i];
    bits[i] = w.u;
    for (int k = 0; k < 4; k++)
        bytes[4 * i + k] = w.b[3 - k];      /* big-endian order out */
    w.u ^= 0x80000000u;                    /* flip the sign through the integer view */
    back[i] = w.f;
}
