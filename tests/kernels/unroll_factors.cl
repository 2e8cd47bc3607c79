// Unrolling by 2, 3, 4 and 8, in the three spellings (opencl_unroll_hint, [[cl::unroll_hint]],
// #pragma unroll), on loops whose trip counts are the constants 0, 1, 7 and 1000, counted up,
// down, by 2, with <, <=, >, >= and !=, and with int, uint and short counters; then a full
// unroll without a factor and a factor of 1. Loop r writes its iterations into its own
// 1000-word region of out and folds them into sums[r] (s = s * 3 + value, unsigned), so a
// copy or a remainder iteration that runs twice or not at all shows.
#define R(r) ((r) * 1000)

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void unroll_factors(__global const uint *in, __global uint *out, __global uint *sums)
{
    uint s;

    /* factor 2 */
    s = 0;
    __attribute__((opencl_unroll_hint(2)))
    for (int i = 0; i < 0; i++) { out[R(0) + i] = in[i] + 2u; s = s * 3u + in[i]; }
    sums[0] = s;
    s = 0;
    __attribute__((opencl_unroll_hint(2)))
    for (int i = 5; i <= 5; i++) { out[R(1) + i] = in[i] + 2u; s = s * 3u + in[i]; }
    sums[1] = s;
    s = 0;
    [[cl::unroll_hint(2)]]
    for (int i = 7; i > 0; i--) { out[R(2) + i] = in[i] + 2u; s = s * 3u + in[i]; }
    sums[2] = s;
    s = 0;
    #pragma unroll 2
    for (int i = 0; i != 2000; i += 2) { out[R(3) + i / 2] = in[i / 2] + 2u; s = s * 3u + in[i / 2]; }
    sums[3] = s;

    /* factor 3 */
    s = 0;
    __attribute__((opencl_unroll_hint(3)))
    for (int i = 10; i < 10; i++) { out[R(4) + i] = in[i] * 3u; s = s * 3u + in[i]; }
    sums[4] = s;
    s = 0;
    [[cl::unroll_hint(3)]]
    for (uint i = 0; i < 1u; i++) { out[R(5) + i] = in[i] * 3u; s = s * 3u + in[i]; }
    sums[5] = s;
    s = 0;
    [[cl::unroll_hint(3)]]
    for (int i = 0; i < 7; i++) { out[R(6) + i] = in[i] * 3u; s = s * 3u + in[i]; }
    sums[6] = s;
    s = 0;
    #pragma unroll 3
    for (int i = 999; i >= 0; i--) { out[R(7) + i] = in[i] * 3u; s = s * 3u + in[i]; }
    sums[7] = s;

    /* factor 4 */
    s = 0;
    __attribute__((opencl_unroll_hint(4)))
    for (int i = 3; i > 3; i--) { out[R(8) + i] = in[i] ^ 4u; s = s * 3u + in[i]; }
    sums[8] = s;
    s = 0;
    #pragma unroll 4
    for (int i = -1; i < 0; i++) { out[R(9) + i + 1] = in[i + 1] ^ 4u; s = s * 3u + in[i + 1]; }
    sums[9] = s;
    s = 0;
    [[cl::unroll_hint(4)]]
    for (int i = 0; i < 14; i += 2) { out[R(10) + i / 2] = in[i / 2] ^ 4u; s = s * 3u + in[i / 2]; }
    sums[10] = s;
    s = 0;
    __attribute__((opencl_unroll_hint(4)))
    for (uint i = 0; i < 1000u; i++) { out[R(11) + i] = in[i] ^ 4u; s = s * 3u + in[i]; }
    sums[11] = s;

    /* factor 8 */
    s = 0;
    #pragma unroll 8
    for (int i = 0; i < 0; i++) { out[R(12) + i] = in[i] - 8u; s = s * 3u + in[i]; }
    sums[12] = s;
    s = 0;
    __attribute__((opencl_unroll_hint(8)))
    for (int i = 0; i != 1; i++) { out[R(13) + i] = in[i] - 8u; s = s * 3u + in[i]; }
    sums[13] = s;
    s = 0;
    [[cl::unroll_hint(8)]]
    for (int i = 6; i >= 0; i--) { out[R(14) + i] = in[i] - 8u; s = s * 3u + in[i]; }
    sums[14] = s;
    s = 0;
    #pragma unroll 8
    for (short i = 0; i < 1000; i++) { out[R(15) + i] = in[i] - 8u; s = s * 3u + in[i]; }
    sums[15] = s;

    /* full, and a factor of 1 (not unrolled) */
    s = 0;
    #pragma unroll
    for (int i = 0; i < 7; i++) { out[R(16) + i] = in[i] + 16u; s = s * 3u + in[i]; }
    sums[16] = s;
    s = 0;
    __attribute__((opencl_unroll_hint(1)))
    for (int i = 0; i < 1000; i++) { out[R(17) + i] = in[i] + 17u; s = s * 3u + in[i]; }
    sums[17] = s;
}
