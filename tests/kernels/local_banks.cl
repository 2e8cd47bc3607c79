// Four stores per work-item to neighbouring words of one __local array, and four loads
// of another work-item's four words: on one write port the first loop would start a
// work-item every 4 cycles; with the array in 4 cyclic banks (word a in bank a % 4) the
// four stores of a work-item, and of whichever work-items share a cycle, hit four
// different banks, and so do the four loads (no read replicas needed). The
// data-dependent load after the second barrier may hit any bank: it takes all four read
// lanes, alone in its loop.
#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void local_banks(__global const uint *in, __global uint *out)
{
    __local uint t[4 * WG];
    uint lid = get_local_id(0);
    uint v = in[get_global_id(0)];
    t[4 * lid] = v;
    t[4 * lid + 1] = v ^ 0x5a5a5a5au;
    t[4 * lid + 2] = v >> 3;
    t[4 * lid + 3] = v * 7u;
    barrier(CLK_LOCAL_MEM_FENCE);

    uint j = WG - 1 - lid;
    uint s = t[4 * j] + 3u * t[4 * j + 1] + 5u * t[4 * j + 2] + 7u * t[4 * j + 3];
    barrier(CLK_LOCAL_MEM_FENCE);

    out[get_global_id(0)] = s ^ t[v & (4 * WG - 1)];
}
