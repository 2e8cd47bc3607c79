// By-value vectors, a struct and a parameter named like the launch function's own.
struct pair { int a; float b; };
__kernel __attribute__((reqd_work_group_size(2, 1, 1)))
void byval(__global float *out, float4 v, int3 w, struct pair p, int dev, __local int *tmp)
{
    size_t g = get_global_id(0);
    tmp[get_local_id(0)] = dev + w.y;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = v.x + v.w + (float)w.z + (float)p.a + p.b + (float)tmp[0];
}
