// Pipelining traps through memory: a store feeding the next iteration's load (distance
// 1), a conditional store, a break out of a loop, and a work-item loop whose stores are
// predicated on the data.
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void pipe_memory_deps(__global int *a, __global const int *b, __global int *out, int n)
{
    // a[i + 1] reads what iteration i wrote.
    for (int i = 0; i < n - 1; i++)
        a[i + 1] = a[i] * 3 + b[i];

    // Only the positive ones are written.
    for (int i = 0; i < n; i++) {
        if (b[i] > 0)
            out[i] = b[i] * 2;
    }

    // Stops at the first negative value.
    int i = 0;
    for (; i < n; i++) {
        if (b[i] < -40)
            break;
    }
    out[n] = i;
}
