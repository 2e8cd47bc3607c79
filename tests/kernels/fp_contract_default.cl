// x * x + c with no FP_CONTRACT pragma. OpenCL lets a compiler fuse it into one rounding
// (POCL does); ocl-hls never fuses unless asked (fma()), so the reference runs with
// contraction off (ocl-ref/src/source.rs). With random operands most elements differ
// between the fused and the twice-rounded result, so this kernel catches either side
// starting to contract.
__kernel void fp_contract_default(__global const float *x, __global const float *c,
                                  __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = x[i] * x[i] + c[i];
}
