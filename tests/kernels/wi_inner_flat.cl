// A work-item loop holding a loop, flattened into one pipeline (loops/flatten.rs): every
// work-item runs the same loop over its row of a local table, each iteration
// reading what the one before wrote (a dependence within one work-item that the
// flattened loop must keep), then a local histogram through atomics.
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void wi_inner_flat(__global const int *in, __global int *out, __global uint *hist)
{
    __local int t[16 * 8];
    __local uint h[8];
    uint l = get_local_id(0);
    size_t g = get_global_id(0);
    if (l < 8)
        h[l] = 0;
    t[l * 8] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 1; j < 6; j++) {
        t[l * 8 + j] = t[l * 8 + j - 1] * 3 + j;
        atomic_inc(&h[(t[l * 8 + j] >> 2) & 7]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = t[l * 8 + 5];
    if (l < 8)
        atomic_add(&hist[l], h[l]);
}
