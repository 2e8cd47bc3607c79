// Loops that never run, kept as loops (no unroll hint): a counted loop of trip count 0
// (its exit test folds to the constant false) and a while loop on a flag cleared before
// it. Their pipelines must still build (the exit test of such a loop is a constant, an
// op the datapath does not compute) and leave the values they would have changed alone.
__kernel void zero_trip(__global const uint *in, __global uint *out)
{
    size_t g = get_global_id(0);
    uint s = in[g];
    for (int i = 0; i < 0; i++) {
        out[g + i] = in[i] - 8u;
        s = s * 3u + in[i];
    }
    int go = 0;
    uint t = s ^ 0x55u;
    while (go) {
        t = t * 5u + in[g];
        go = t > 7u;
    }
    out[g] = s + t;
}
