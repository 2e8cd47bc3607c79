// Atomics with the OpenCL 1.x names (the device's OpenCL C is 1.2): atomic_add,
// atomic_inc, atomic_min/max, atomic_or and a compare-exchange loop on __local memory,
// merged into __global counters; every result is order-independent.
__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
void atomics_1x(__global const int *in, __global int *g, __global uint *bits)
{
    __local int lsum, lmin, lmax, lcount;
    __local uint lor;
    size_t l = get_local_id(0);
    if (l == 0) {
        lsum = 0; lmin = INT_MAX; lmax = INT_MIN; lcount = 0; lor = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    atomic_add(&lsum, v);
    atomic_min(&lmin, v);
    atomic_max(&lmax, v);
    if (v > 0)
        atomic_inc(&lcount);
    atomic_or(&lor, 1u << (v & 31));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        atomic_add(&g[0], lsum);
        atomic_min(&g[1], lmin);
        atomic_max(&g[2], lmax);
        atomic_add(&g[3], lcount);
        atomic_or(&bits[get_group_id(0)], lor);
        /* a compare-exchange retry loop: one increment per group, in any order */
        int old, seen = g[4];
        do {
            old = seen;
            seen = atomic_cmpxchg(&g[4], old, old + 1);
        } while (seen != old);
    }
    atomic_xchg(&g[5], 7);
}
