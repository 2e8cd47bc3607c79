// Element-wise float addition, one work-item per element: the smallest useful kernel.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void vadd(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
