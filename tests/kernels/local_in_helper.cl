// __local arrays declared inside a helper function, as Intel's compiler accepts (OpenCL C
// 1.2 and clang allow them only at kernel scope): the helper, called twice, rotates values
// through its scratch array within the work-group. ocl-hls compiles the helper's own array
// (__OCL_HLS__); POCL, built on clang, runs the same code with the array declared by the
// kernel and passed in, the meaning Intel gives it (one array per kernel, all calls share it).
#define WG 32

#ifdef __OCL_HLS__
#define SCRATCH_PARAM
#define SCRATCH_ARG
#define SCRATCH_DECL __local int scratch[WG];
#define KERNEL_SCRATCH
#else
#define SCRATCH_PARAM , __local int *scratch
#define SCRATCH_ARG , scratch
#define SCRATCH_DECL
#define KERNEL_SCRATCH __local int scratch[WG];
#endif

int rotate_in_group(int v, int shift SCRATCH_PARAM)
{
    SCRATCH_DECL
    size_t l = get_local_id(0);
    scratch[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r = scratch[(l + shift) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void local_in_helper(__global const int *in, __global int *out)
{
    KERNEL_SCRATCH
    size_t i = get_global_id(0);
    int a = rotate_in_group(in[i], 1 SCRATCH_ARG);
    int b = rotate_in_group(in[i] * 2 + 1, 5 SCRATCH_ARG);
    out[2 * i] = a;
    out[2 * i + 1] = b;
}
