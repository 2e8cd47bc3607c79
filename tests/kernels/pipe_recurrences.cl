// Pipelining traps with recurrences: a float accumulation (the adder's latency bounds
// the II), a loop whose trip count depends on the data, and a nested loop whose inner
// loop is pipelined once per outer iteration.
#pragma OPENCL FP_CONTRACT OFF
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void pipe_recurrences(__global const float *x, __global const int *len,
                      __global float *sums, __global int *steps, int rows, int cols)
{
    float acc = 0.0f;
    for (int i = 0; i < rows * cols; i++)
        acc += x[i];
    sums[0] = acc;

    // Data-dependent trip count: walk until a zero length or the end.
    int k = 0;
    int total = 0;
    while (k < cols && len[k] != 0) {
        total += len[k];
        k++;
    }
    steps[0] = k;
    steps[1] = total;

    // Nested: one pipelined inner loop per row.
    for (int r = 0; r < rows; r++) {
        float s = 0.0f;
        for (int c = 0; c < cols; c++)
            s += x[r * cols + c] * 0.5f;
        sums[1 + r] = s;
    }
}
