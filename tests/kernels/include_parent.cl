// #include of a header outside the kernel's folder ("../common/fpga_util.h", resolved as
// clang does, relative to the including file), whose own include is found in the kernel's
// folder; a struct, an inline function and macros come from the two headers.
#include "../common/fpga_util.h"

__kernel void include_parent(__global const int *in, __global stats_t *out)
{
    size_t g = get_global_id(0);
    stats_t s;
    s.sum = 0;
    s.max = -2147483647 - 1;
    for (int k = 0; k < 8; k++) {
        int v = scaled(in[g * 8 + k]);
        s.sum += v;
        s.max = max(s.max, v);
    }
    out[g] = s;
}
