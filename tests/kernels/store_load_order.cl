// Store-then-load ordering through global memory: each work-item updates its element
// and reads it straight back through the same pointer, then, after a barrier, reads the
// element its left neighbour wrote (work-item 0 of a group reads the group's last
// element, written just before), and reads its first output back to compute the second.
// Every read must see the stores before it, however late the memory acknowledges a write.
__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void store_load_order(__global int *p, __global int *out)
{
    size_t i = get_global_id(0);
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    __global int *q = p + i;
    *q = *q * 3 + (int)i;
    int back = *q;
    barrier(CLK_GLOBAL_MEM_FENCE);
    int left = p[i - l + (l + n - 1) % n];
    __global int *o = out + 2 * i;
    o[0] = back;
    o[1] = left - o[0];
}
