// #include of a header in the kernel's own folder (and a second include of it, kept
// out by its guard): a macro, a typedef and an inline hash function from the header.
#include "include_header.h"
#include "include_header.h"

__kernel void include_header(__global const uint *in, __global pair_t *out)
{
    size_t i = get_global_id(0);
    pair_t p;
    p.lo = mix32(in[i]);
    p.hi = mix32(in[i] ^ HEADER_MAGIC);
    out[i] = p;
}
