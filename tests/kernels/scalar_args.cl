// By-value kernel arguments of every scalar type a spec can give (char .. double),
// stored back so the bytes the host passed can be checked, plus a sum in double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scalar_args(char c, uchar uc, short s, ushort us, int i, uint ui, long l,
                          ulong ul, float f, double d, __global long *out, __global double *dout)
{
    out[0] = c;
    out[1] = uc;
    out[2] = s;
    out[3] = us;
    out[4] = i;
    out[5] = ui;
    out[6] = l;
    out[7] = (long)ul;
    dout[0] = f;
    dout[1] = d;
    dout[2] = c + uc + s + us + i + ui + (double)l + (double)ul + f + d;
}
