// Divisions that -cl-fast-relaxed-math lets a compiler compute as a multiply by the
// reciprocal (hls/tests/run_cli.rs runs this kernel under that option in POCL, the
// interpreter and Verilator, within OpenCL's relaxed-math bound); without the option
// every quotient is correctly rounded, and all three give the same bits.
__kernel void fast_math_div(__global const float *x, __global const float *w,
                            __global float *out)
{
    int i = get_global_id(0);
    float v = x[i];
    out[4 * i + 0] = v / 3.0f;
    out[4 * i + 1] = v / 10.0f;
    out[4 * i + 2] = (v + 1.0f) / 0.7f;
    out[4 * i + 3] = v / w[i];
}
