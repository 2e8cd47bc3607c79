// mad(): OpenCL lets it be computed "with reduced accuracy"; ocl-hls computes a multiply
// then an add (two roundings), as the interpreter does and as POCL does with contraction
// off, for float, float vectors and double (it had no hardware implementation before).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void mad_builtin(__global const float *x, __global const float *y,
                          __global float *out, __global double *dout)
{
    int i = get_global_id(0);
    float a = x[i], b = y[i], c = x[(i + 1) & 63];
    out[5 * i] = mad(a, b, c);
    float4 v = (float4)(a, b, c, 1.5f);
    float4 r = mad(v, v.yzwx, (float4)(c));
    out[5 * i + 1] = r.x;
    out[5 * i + 2] = r.y;
    out[5 * i + 3] = r.z;
    out[5 * i + 4] = r.w;
    dout[i] = mad((double)a, (double)b, (double)c * 0.1);
}
