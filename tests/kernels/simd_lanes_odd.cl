// SIMD lanes where the work-group is not a multiple of the lane count: without
// reqd_work_group_size the launch picks the local size (here 100 work-items per group, 4
// lanes), so the last work-items of each group run in the remainder after the lanes.
__kernel __attribute__((num_simd_work_items(4)))
void simd_lanes_odd(__global const int *a, __global int *out, int k)
{
    size_t i = get_global_id(0);
    out[i] = a[i] * k + (int)get_local_id(0);
}
