// 2D and 3D __local arrays: a 2D work-group transposes its tile through a 2D array,
// and a 3D array holds per-lane partial sums that one work-item reduces.
#define T 8
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void local_2d_3d(__global const int *in, __global int *out, __global int *sums, int width)
{
    __local int tile[T][T];
    __local int part[2][T][T];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    int v = in[gy * width + gx];
    tile[ly][lx] = v;
    part[0][ly][lx] = v;
    part[1][ly][lx] = v * v;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* write the transposed tile into the transposed block position */
    int ox = get_group_id(1) * T + lx, oy = get_group_id(0) * T + ly;
    out[oy * width + ox] = tile[lx][ly];
    if (lx == 0 && ly == 0) {
        int s0 = 0, s1 = 0;
        for (int a = 0; a < T; a++)
            for (int b = 0; b < T; b++) {
                s0 += part[0][a][b];
                s1 += part[1][a][b];
            }
        int g = get_group_id(1) * get_num_groups(0) + get_group_id(0);
        sums[2 * g] = s0;
        sums[2 * g + 1] = s1;
    }
}
