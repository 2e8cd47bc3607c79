// Early exits without goto: break out of a search loop, return from inside a nested
// loop in a helper, and an early return from the kernel that skips the store.
int first_at_least(__global const int *row, int n, int key)
{
    for (int j = 0; j < n; j++) {
        for (int k = 0; k < 2; k++) {
            if (row[j] + k >= key)
                return j * 2 + k;
        }
    }
    return -1;
}

__kernel void early_exit(__global const int *data, __global int *found, __global int *firstneg,
                         int width, int key)
{
    size_t r = get_global_id(0);
    __global const int *row = data + r * width;
    found[r] = first_at_least(row, width, key);
    int j = 0;
    while (1) {
        if (j == width || row[j] < 0)
            break;
        j++;
    }
    if (j == width)
        return;                 /* firstneg[r] keeps its initial value */
    firstneg[r] = j;
}
