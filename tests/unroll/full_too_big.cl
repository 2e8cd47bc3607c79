// Unrolling requests the tool must refuse with an error at the loop: a full unroll of
// 100000 iterations, and a factor of 20000 on a loop whose trip count is a scalar. Both
// would make far more operations than the unrolling limit; both are reported in one run.
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void full_too_big(__global float *a, int n)
{
    #pragma unroll
    for (int i = 0; i < 100000; i++)
        a[i] = a[i] * 2.0f;
    __attribute__((opencl_unroll_hint(20000)))
    for (int i = 0; i < n; i++)
        a[i] += 1.0f;
}
