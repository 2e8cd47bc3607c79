// Integer division and remainder with negative operands (truncation toward zero, the
// remainder takes the dividend's sign) for int and long, and unsigned division of the
// same bits.
__kernel void int_div_neg(__global const int *a, __global const int *b, __global int *q,
                          __global long *lq, __global uint *uq)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    if (y == 0)
        y = -7;
    q[2 * i] = x / y;
    q[2 * i + 1] = x % y;
    long lx = (long)x * 100003L, ly = (long)y;
    lq[2 * i] = lx / ly;
    lq[2 * i + 1] = lx % ly;
    uq[2 * i] = (uint)x / (uint)y;
    uq[2 * i + 1] = (uint)x % (uint)y;
}
