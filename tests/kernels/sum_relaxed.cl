// Float sums that -cl-unsafe-math-optimizations (and -cl-fast-relaxed-math) let a compiler
// reassociate: with the option, ocl-hls splits each accumulator into interleaved partial
// sums, so the loops pipeline at II 1 instead of waiting for the float adder (II 6); the
// interpreter makes the same split, so it and Verilator give the same bits
// (hls/tests/run_cli.rs runs this kernel under the option in POCL, the interpreter and
// Verilator, within a bound on reordered sums). Without the option every sum is added in
// source order, and all three give the same bits.
#pragma OPENCL FP_CONTRACT OFF
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void sum_relaxed(__global const float *x, __global float *out, __global float *pre, int n,
                 int rows)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[i];
    out[0] = s;

    // A difference, in a loop unrolled by 4 (four partials per copy).
    float d = 100.0f;
    __attribute__((opencl_unroll_hint(4)))
    for (int i = 0; i < n; i++)
        d -= x[i] * 0.25f;
    out[1] = d;

    // A sum per row: the partials start again at every entry of the inner loop.
    int cols = n / rows;
    for (int r = 0; r < rows; r++) {
        float t = 0.0f;
        for (int c = 0; c < cols; c++)
            t += x[r * cols + c];
        out[2 + r] = t;
    }

    // A dot product accumulated through fma.
    float f = 0.0f;
    for (int i = 0; i < n; i++)
        f = fma(x[i], x[n - 1 - i], f);
    out[10] = f;

    // A prefix sum stores every partial result: not a sum the option may reorder.
    float p = 0.0f;
    for (int i = 0; i < n; i++) {
        p += x[i];
        pre[i] = p;
    }
}
