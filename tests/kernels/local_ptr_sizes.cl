// Two __local pointer arguments of different element types and sizes, both set by the
// launch spec (a: 64 floats, four per work-item; b: 16 ints, one per work-item), with a
// fixed work-group size, a barrier, and results that read both, each at an element
// another work-item wrote (one of a's chosen by the data in b).
#pragma OPENCL FP_CONTRACT OFF
#define WG 16

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void local_ptr_sizes(__global const float *x, __global const int *k, __global float *out,
                     __local float *a, __local int *b)
{
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    a[4 * lid + 0] = x[4 * gid + 0];
    a[4 * lid + 1] = x[4 * gid + 1];
    a[4 * lid + 2] = x[4 * gid + 2];
    a[4 * lid + 3] = x[4 * gid + 3];
    b[lid] = k[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    int pick = b[(lid + 1) % WG] & (4 * WG - 1);
    out[gid] = a[pick] * (float)b[lid ^ (WG - 1)] + a[4 * ((lid + 3) % WG) + 2];
}
