// Multiply-adds on loop recurrences, which -cl-mad-enable (and the options that imply it)
// lets ocl-hls fuse into fma: one rounding, and the fused unit's latency (5 cycles)
// instead of a multiplier's and an adder's (4 + 6) bounds the loop's II. The interpreter
// fuses the same operations, so it and Verilator give the same bits (hls/tests/run_cli.rs
// runs this kernel under the option in POCL, the interpreter and Verilator). Without the
// option each product and sum is rounded, and all three give the same bits.
#pragma OPENCL FP_CONTRACT OFF
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void mad_recurrence(__global const float *x, __global const float *c, __global float *y,
                    __global float *out, float a, int n)
{
    // A first-order IIR filter: the multiply-add is the recurrence.
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s = s * a + x[i];
        y[i] = s;
    }

    // A dot product: only the add is on the recurrence.
    float d = 0.0f;
    for (int i = 0; i < n; i++)
        d += x[i] * c[i];
    out[0] = d;

    // Not on a recurrence: stays a multiply and an add.
    out[1] = x[0] * c[0] + x[1];

    // Differences, the product first and second: fma(u, a, -x), fma(-v, a, c).
    float u = 1.0f, v = 0.0f;
    for (int i = 0; i < n; i++) {
        u = u * a - x[i];
        v = c[i] - v * a;
    }
    out[2] = u;
    out[3] = v;
}
