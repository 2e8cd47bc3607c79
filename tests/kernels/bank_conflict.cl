// A pipelined work-item loop whose accesses to one __local array no banking or
// replication serves in a cycle: each work-item makes five stores to `t` at addresses
// its data picks (its four bytes into its own four slots, rotated by the data, then an
// overwrite of one slot the data picks), on the array's one write port, so that loop's
// II is 5; after the barrier each work-item reads its neighbour's four slots.
#define WG 32

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void bank_conflict(__global const uint *in, __global uint *out)
{
    __local uint t[4 * WG];
    uint lid = get_local_id(0);
    uint v = in[get_global_id(0)];
    uint row = 4 * lid;
    uint r = v & 3;
    t[row + r] = v & 0xff;
    t[row + ((r + 1) & 3)] = (v >> 8) & 0xff;
    t[row + ((r + 2) & 3)] = (v >> 16) & 0xff;
    t[row + ((r + 3) & 3)] = v >> 24;
    t[row + ((v >> 2) & 3)] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);

    uint n = 4 * ((lid + 1) % WG);
    out[get_global_id(0)] = t[n] + 3 * t[n + 1] + 5 * t[n + 2] + 7 * t[n + 3];
}
