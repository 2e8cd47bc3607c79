// do-while loops: the body runs at least once even when the condition is false at the
// start, a continue jumps to the condition, and a nested do counts digits.
__kernel void do_loop(__global const uint *in, __global int *out)
{
    size_t i = get_global_id(0);
    uint v = in[i];
    int digits = 0;
    do {
        digits++;
        v /= 10u;
    } while (v != 0u);
    int n = 0, odd = 0;
    do {
        n++;
        if ((n & 1) == 0)
            continue;           /* goes to the condition, not to the top */
        odd += n;
    } while (n < (int)(in[i] % 7u));
    out[2 * i] = digits;
    out[2 * i + 1] = odd;
}
