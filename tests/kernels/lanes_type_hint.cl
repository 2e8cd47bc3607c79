// Lanes from vec_type_hint: the kernel computes in float4, so two work-items' 16-byte
// vectors fill the sim board's 32-byte memory port: 2 lanes, whose loads and stores
// become one 32-byte access each.
#pragma OPENCL FP_CONTRACT OFF

__kernel __attribute__((vec_type_hint(float4))) __attribute__((reqd_work_group_size(64, 1, 1)))
void lanes_type_hint(__global const float4 *a, __global float4 *out, float k)
{
    size_t i = get_global_id(0);
    float4 v = a[i];
    out[i] = v.wzyx * k + (float4)((float)get_local_id(0));
}
