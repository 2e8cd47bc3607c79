// half as storage: vload_half and vload_half4 widen exactly, vstore_half_rtz truncates
// toward zero, vstore_half4_rte rounds to nearest even, and float values too large for
// half become infinity (rte) or the largest half (rtz).
__kernel void half_vload(__global const half *in, __global const float *f,
                         __global float *wide, __global half *rtz, __global half *rte)
{
    size_t i = get_global_id(0);
    wide[i] = vload_half(i, in) * 2.0f;
    float4 q = vload_half4(i, in + 1);       /* unaligned start: elements 4i+1 .. 4i+4 */
    wide[64 + i] = q.x + q.y + q.z + q.w;
    vstore_half_rtz(f[i], i, rtz);
    vstore_half4_rte((float4)(f[i], -f[i], f[i] * 1024.0f, f[i] / 4096.0f), i, rte);
}
