// vadd with eight work-items per cycle: num_simd_work_items(8) replicates the work-item
// datapath into lanes; neighbouring lanes' loads and stores become one 32-byte access.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((num_simd_work_items(8)))
void vadd_simd(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
