// One helper function called with pointers into __local and into __global memory
// (separate address-space versions, as OpenCL C 1.2 has no generic space), passing a
// pointer offset into an array and writing through it.
void scale_local(__local int *p, int n, int k)
{
    for (int j = 0; j < n; j++)
        p[j] *= k;
}

void scale_global(__global int *p, int n, int k)
{
    for (int j = 0; j < n; j++)
        p[j] *= k;
}

int sum_local(const __local int *p, int n)
{
    int s = 0;
    for (int j = 0; j < n; j++)
        s += p[j];
    return s;
}

__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void helper_ptrs(__global int *data, __global int *sums, __local int *tmp)
{
    int l = get_local_id(0), g = get_group_id(0);
    tmp[l] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        scale_local(tmp + 8, 8, 3);          /* the upper half, times 3 */
        sums[g] = sum_local(tmp, 16);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = tmp[l];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (l == 1)
        scale_global(data + g * 16, 4, -1);   /* first four of the group, negated */
}
