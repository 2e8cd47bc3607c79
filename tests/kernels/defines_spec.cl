// Macros from the spec's `defines` (passed as -D): the defaults below are replaced,
// so the results show which values the kernel was built with, including a float
// macro and one defined without a value.
#ifndef SCALE
#define SCALE 1
#endif
#ifndef OFFSET
#define OFFSET 0.0f
#endif
#ifndef LEN
#define LEN 4
#endif

__kernel void defines_spec(__global const int *in, __global float *out, __global int *flags)
{
    size_t i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < LEN; k++)
        acc += in[(i + k) % get_global_size(0)];
    out[i] = (float)(acc * SCALE) + OFFSET;
#ifdef WITH_FLAG
    flags[i] = WITH_FLAG + LEN;
#else
    flags[i] = -1;
#endif
}
