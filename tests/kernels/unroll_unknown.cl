// Unrolling by 2, 3, 4 and 8 when the trip count is known only at run time: work-items
// 0, 1 and 2 run 0, 1 and 7 iterations and work-item 3 the scalar n (1000 in the spec),
// so every main loop's guard and every remainder loop meets each case; the loops count
// up, down from n - 1, by 3 from a scalar start, and with != on a uint counter. Loop r of
// work-item g writes its iterations into out[g * 4000 + r * 1000 ...] and folds them
// into sums[g * 4 + r].
__kernel void unroll_unknown(__global const uint *in, __global uint *out, __global uint *sums,
                             int n, int start)
{
    int g = get_global_id(0);
    int m = (g == 3) ? n : ((g == 2) ? 7 : g);
    __global uint *o = out + g * 4000;
    uint s = 0;
    __attribute__((opencl_unroll_hint(2)))
    for (int i = 0; i < m; i++) { o[i] = in[i] ^ 0x55u; s = s * 3u + in[i]; }
    sums[g * 4] = s;
    s = 0;
    [[cl::unroll_hint(3)]]
    for (int i = m - 1; i >= 0; i--) { o[1000 + i] = in[i] + (uint)i; s = s * 5u + in[i]; }
    sums[g * 4 + 1] = s;
    s = 0;
    #pragma unroll 4
    for (int i = start; i < start + 3 * m; i += 3) {
        o[2000 + (i - start) / 3] = in[(i - start) / 3] * 7u;
        s = s * 3u + (uint)i;
    }
    sums[g * 4 + 2] = s;
    s = 0;
    __attribute__((opencl_unroll_hint(8)))
    for (uint i = 0; i != (uint)m; i++) { o[3000 + i] = in[i] - 1u; s = s * 3u + in[i]; }
    sums[g * 4 + 3] = s;
}
