// A broken promise: ivdep(4) says no dependence closer than 4 iterations, but A[i + 2]
// written by iteration i is read by iteration i + 2. `--check-hints` must report it.
__kernel void ivdep_broken(__global int *A, int N)
{
    [[cl::ivdep(4)]]
    for (int i = 0; i < N; i++)
        A[i + 2] = A[i] + 1;
}
