// A FIR filter whose window is a private array, shifted and read at constant indices once
// its loops are unrolled (fully by the hints, and the zeroing loop by the tool's own
// choice), so the window lives in registers; the integer taps are a __constant table
// whose loads become constants, and a private array with an initializer gives each
// output's offset. Each work-item filters its own 64-sample segment.
#define TAPS 8
#define SEG 64

__constant int taps[TAPS] = {3, -1, 4, 1, -5, 9, 2, -6};

__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void fir_window(__global const int *x, __global int *y)
{
    int g = get_global_id(0);
    int w[TAPS];
    const int scale[2] = {5, -3};
    for (int k = 0; k < TAPS; k++)
        w[k] = 0;
    for (int i = 0; i < SEG; i++) {
        #pragma unroll
        for (int k = TAPS - 1; k > 0; k--)
            w[k] = w[k - 1];
        w[0] = x[g * SEG + i];
        int acc = 0;
        __attribute__((opencl_unroll_hint))
        for (int k = 0; k < TAPS; k++)
            acc += taps[k] * w[k];
        y[g * SEG + i] = acc * scale[0] + scale[1];
    }
}
