// Shifts by counts at or beyond the operand width: OpenCL C takes the count modulo the
// width (unlike C), for int, uint, long and vector lanes with per-lane counts; a char
// is promoted to int first, so its count is taken modulo 32, not 8.
__kernel void shift_large(__global const int *a, __global const uint *n, __global int *out,
                          __global long *lout, __global char *cout)
{
    size_t i = get_global_id(0);
    int x = a[i];
    uint k = n[i];                       /* 0 .. 200 */
    out[4 * i] = x << k;                 /* k % 32 */
    out[4 * i + 1] = x >> k;             /* arithmetic, k % 32 */
    out[4 * i + 2] = (int)((uint)x >> k);
    int4 v = (int4)(x) << (int4)(k, k + 1, 33, 64);
    out[4 * i + 3] = v.x ^ v.y ^ v.z ^ v.w;
    lout[i] = ((long)x << k) ^ (long)((ulong)(long)x >> (k + 1));   /* k % 64 */
    char c = (char)x;
    cout[i] = c << (char)k;              /* (int)c << (k % 32), low 8 bits kept */
}
