// Lanes behind guards: the tool gives this kernel 4 lanes (12 bytes per work-item fill
// the 32-byte port at 4), each lane keeping its `if`. The lanes' loads are one wide
// request wherever any lane's guard holds, their stores one wide write whose byte strobes
// leave the lanes past n untouched (n = 1001: the last lanes stop in the middle of a
// wide access).
#pragma OPENCL FP_CONTRACT OFF

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void lanes_guarded(__global const float *a, __global const float *b, __global float *c, int n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] * 2.0f + b[i];
}
