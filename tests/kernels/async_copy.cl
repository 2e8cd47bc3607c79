// Async copies between global and local memory as tiled kernels write them: a tile in
// with async_work_group_copy (event 0), a strided column in with the strided form chained
// on the first event, wait_group_events on both, prefetch as a hint, and the results out
// to global memory with async copies again (plain and strided), waited on before the end.
#define WG 16

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void async_copy(__global const int *in, __global const float4 *vin, __global int *out,
                __global int *cols, __global float4 *vout)
{
    __local int tile[2 * WG];
    __local int col[WG];
    __local float4 vtile[WG];
    __local int res[2 * WG];
    size_t grp = get_group_id(0);
    size_t l = get_local_id(0);

    prefetch(in + grp * 2 * WG, 2 * WG);
    event_t ev[2];
    ev[0] = async_work_group_copy(tile, in + grp * 2 * WG, 2 * WG, 0);
    /* every 3rd element from the group's base: in[base + 3 * i] */
    ev[1] = async_work_group_strided_copy(col, in + grp * 7, WG, 3, ev[0]);
    event_t e3 = async_work_group_copy(vtile, vin + grp * WG, WG, 0);
    wait_group_events(2, ev);
    wait_group_events(1, &e3);

    res[2 * l] = tile[2 * l] + tile[WG * 2 - 1 - 2 * l];
    res[2 * l + 1] = col[l] * 3 - col[(l + 1) % WG];
    vtile[l] = vtile[l] * 2.0f + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    barrier(CLK_LOCAL_MEM_FENCE);

    event_t o = async_work_group_copy(out + grp * 2 * WG, res, 2 * WG, 0);
    /* col back out, spread every 2nd element */
    o = async_work_group_strided_copy(cols + grp * 2 * WG, col, WG, 2, o);
    event_t vo = async_work_group_copy(vout + grp * WG, vtile, WG, 0);
    wait_group_events(1, &o);
    wait_group_events(1, &vo);
}
