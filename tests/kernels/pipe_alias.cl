// Buffer arguments that overlap: the launch passes one buffer twice (`same_as`), `dst`
// 32 elements into `src`. A compiler that pipelines the first loop as if the two were
// distinct reads src[i] before the store of iteration i - 32 has landed.
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void pipe_alias(__global const int *src, __global int *dst, __global int *other, int n)
{
    // src[i + 32] is dst[i]: iteration i reads what iteration i - 32 wrote.
    for (int i = 0; i < n; i++)
        dst[i] = src[i] * 3 + 1;

    // `other` is a buffer of its own: this loop may run as a pipeline.
    for (int i = 0; i < n; i++)
        other[i] = src[i] - dst[i];
}
