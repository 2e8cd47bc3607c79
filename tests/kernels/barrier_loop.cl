// barrier inside a loop: each round every work-item reads its neighbours' values from
// __local memory, then all wait before the buffer is overwritten (a 1D blur repeated).
#define N 64
__kernel __attribute__((reqd_work_group_size(N, 1, 1)))
void barrier_loop(__global const int *in, __global int *out, int rounds)
{
    __local int buf[N];
    int l = get_local_id(0);
    int v = in[get_global_id(0)];
    for (int r = 0; r < rounds; r++) {
        buf[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int left = buf[(l + N - 1) % N], right = buf[(l + 1) % N];
        v = left + 2 * v + right + r;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = v;
}
