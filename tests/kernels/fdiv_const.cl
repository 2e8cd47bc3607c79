// Single-precision division by constants: by powers of two whose reciprocal is a normal
// float the opt stage multiplies instead (the same bits for every input: zeros,
// infinities, NaNs, subnormals), by 2^127 (reciprocal subnormal) and by 3 it divides.
// The first 16 work-items take edge values.
__constant uint EDGES[16] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                             0x7fc00000u, 0xffc00001u, 0x00000001u, 0x807fffffu,
                             0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u,
                             0x40400000u, 0x7f000000u, 0x01000000u, 0x00ffffffu};

__kernel void fdiv_const(__global const uint *bits, __global float *out)
{
    size_t i = get_global_id(0);
    float x = as_float(i < 16 ? EDGES[i] : bits[i]);
    out[6 * i] = x / 4.0f;
    out[6 * i + 1] = x / 0.5f;
    out[6 * i + 2] = x / -8.0f;
    out[6 * i + 3] = x / 0x1p-126f;
    out[6 * i + 4] = x / 0x1p127f;
    out[6 * i + 5] = x / 3.0f;
}
