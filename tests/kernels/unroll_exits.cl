// Unrolled loops that leave early or skip: break in a partially unrolled counted loop whose
// counter is read after it, continue in fully and partially unrolled loops, break in a
// fully unrolled loop, a do-while unrolled by 2 and a pointer-walking while loop unrolled
// by 4 (both behind per-copy exit tests). The copies must stop, skip and count exactly as
// the rolled loops do.
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void unroll_exits(__global const int *in, __global int *out, int n)
{
    int k;
    #pragma unroll 4
    for (k = 0; k < n; k++) {
        if (in[k] > 90)
            break;
        out[k] = in[k] * 2;
    }
    out[1000] = k;

    int acc = 0;
    #pragma unroll
    for (int i = 0; i < 16; i++) {
        if (in[i] & 1)
            continue;
        acc += in[i];
    }
    out[1001] = acc;

    acc = 0;
    __attribute__((opencl_unroll_hint(3)))
    for (int i = 0; i < n; i++) {
        if (in[i] < 0)
            continue;
        acc += in[i];
        out[1100 + i] = acc;
    }
    out[1002] = acc;

    int j;
    #pragma unroll
    for (j = 0; j < 10; j++) {
        if (in[j + 20] > 80)
            break;
        out[2200 + j] = j;
    }
    out[1003] = j;

    int m = 0;
    __attribute__((opencl_unroll_hint(2)))
    do {
        out[2300 + m] = in[m] + 1;
        m += 3;
    } while (m < n);
    out[1004] = m;

    __global const int *p = in;
    int len = 0;
    [[cl::unroll_hint(4)]]
    while (*p >= -95) {
        if (++len >= n)
            break;
        p++;
    }
    out[1005] = len;
}
