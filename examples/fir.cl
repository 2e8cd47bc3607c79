// 16-tap FIR filter with coefficients in __constant memory: the tap loops are fully
// unrolled, the sample loop is pipelined (written as a single work-item kernel).
#pragma OPENCL FP_CONTRACT OFF
#define TAPS 16

__constant float coeff[TAPS] = {
    0.0125f, -0.025f, 0.05f, -0.075f, 0.1f, 0.125f, 0.15f, 0.175f,
    0.175f, 0.15f, 0.125f, 0.1f, -0.075f, 0.05f, -0.025f, 0.0125f
};

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void fir(__global const float *x, __global float *y, int n)
{
    float window[TAPS];
    for (int k = 0; k < TAPS; k++)
        window[k] = 0.0f;

    for (int i = 0; i < n; i++) {
        __attribute__((opencl_unroll_hint))
        for (int k = TAPS - 1; k > 0; k--)
            window[k] = window[k - 1];
        window[0] = x[i];

        float acc = 0.0f;
        __attribute__((opencl_unroll_hint))
        for (int k = 0; k < TAPS; k++)
            acc += coeff[k] * window[k];
        y[i] = acc;
    }
}
