// Memory attributes the memory stage honours: numbanks(2) and
// xcl_array_partition(cyclic, 4, 2) bank `a` and `b` (element i of the flattened array
// in bank i % N), so each work-item's neighbouring stores share a cycle;
// max_replicates(1) keeps `c` in one copy, so its three reads per work-item take three
// cycles; xcl_array_partition(block, 4, 1) makes `d` four banks of 16 consecutive words
// (block_banks.cl shows what they are for); a complete partition of `e`'s inner
// dimension makes a bank per column. The data-dependent update
// of `a` may hit either bank: it takes both lanes.
#define WG 64
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void memory_attrs(__global const uint *in, __global uint *out)
{
    __local uint a[2 * WG] __attribute__((numbanks(2)));
    __local uint b[WG][4] __attribute__((xcl_array_partition(cyclic, 4, 2)));
    __local uint c[3 * WG] __attribute__((max_replicates(1)));
    __local uint d[WG] __attribute__((xcl_array_partition(block, 4, 1)));
    __local uint e[WG][2] __attribute__((xcl_array_partition(complete, 2)));
    uint lid = get_local_id(0);
    uint v = in[get_global_id(0)];
    a[2 * lid] = v; a[2 * lid + 1] = v + 1;
    a[2 * lid + (v & 1)] ^= v >> 5;
    b[lid][0] = v; b[lid][1] = v * 3; b[lid][2] = v ^ 9; b[lid][3] = 1;
    c[lid] = v; c[lid + WG] = v >> 1; c[lid + 2 * WG] = v << 1;
    d[lid] = v;
    e[lid][0] = v + 7; e[lid][1] = v >> 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint j = WG - 1 - lid;
    out[get_global_id(0)] = a[2 * j] + a[2 * j + 1] + b[j][0] + b[j][1] + b[j][2] + b[j][3]
        + c[j] + c[j + WG] + c[j + 2 * WG] + d[j] + e[j][0] + e[j][1];
}
