// A block-partitioned __local array: xcl_array_partition(block, 2, 1) puts the first
// half of `t` in one bank and the second half in the other. Each work-item stores
// t[lid] and t[lid + WG], then after the barrier reads t[WG - 1 - lid] and t[lid + WG]:
// in every iteration of the pipelined work-item loops one access of each pair is in
// each half, so the pair shares a cycle, one bank each (II 1). Without the partition
// the two stores take the array's one write port in turn (II 2).
#define WG 64
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void block_banks(__global const uint *in, __global uint *out)
{
    __local uint t[2 * WG] __attribute__((xcl_array_partition(block, 2, 1)));
    uint lid = get_local_id(0);
    uint g = get_global_id(0);
    uint2 v = vload2(g, in);
    t[lid] = v.x;
    t[lid + WG] = v.y ^ lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = t[WG - 1 - lid] * 3 + t[lid + WG];
}
