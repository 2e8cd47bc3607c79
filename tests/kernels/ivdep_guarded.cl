// A loop-carried dependence through global memory under ivdep(16), with the store under
// an `if`: the pipelined loop's load of A[i] waits for the store of iteration i - 16
// (when it happened) to be acknowledged, and reads its own beat afresh.
__kernel void ivdep_guarded(__global int *A, __global const int *B, int N, int K)
{
    [[cl::ivdep(16)]]
    for (int i = 0; i < N; i++) {
        if (B[i] != 0)
            A[i + K] = A[i] * B[i] + 1;
    }
}
