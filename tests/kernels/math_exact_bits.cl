// floor, ceil, trunc, round, rint, fabs, copysign and float clamp on binary32 bit
// patterns around every exponent where they change behaviour (|x| < 1 to 2^24), plus
// random bits (NaNs with payloads, infinities, subnormals). Results compared bit for bit.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void math_exact_bits(__global const uint *seed, __global uint *out)
{
    size_t i = get_global_id(0);
    uint h = seed[i] * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    // Odd elements: exponents 118..153 with random mantissa and sign; halves and ties
    // come from clearing low mantissa bits in every fourth element.
    uint e = 118u + (uint)(i % 36u);
    uint m = (i & 2) ? (h & 0x807fffffu) : (h & 0x80780000u);
    uint bits = (i & 1) ? ((h & 0x807fffffu) | (e << 23)) : h;
    if ((i & 3) == 2) bits = m | (e << 23);
    // NaNs (quiet and signalling, either sign) and infinities.
    if ((i & 15) == 4) bits = h | 0x7f800000u;
    if ((i & 31) == 8) bits = h & 0xff800000u;
    float x = as_float(bits);
    float y = as_float(seed[(i + 7) % 256] * 40503u ^ h);
    size_t o = i * 8;
    out[o + 0] = as_uint(floor(x));
    out[o + 1] = as_uint(ceil(x));
    out[o + 2] = as_uint(trunc(x));
    out[o + 3] = as_uint(round(x));
    out[o + 4] = as_uint(rint(x));
    out[o + 5] = as_uint(copysign(fabs(x), y));
    out[o + 6] = as_uint(clamp(x, -1.5f, 2.5f));
    // clamp is undefined for NaN bounds or minval > maxval (OpenCL C 6.15.4; POCL and
    // the interpreter differ there), so the bounds are ordered and NaN-free here.
    float xb = as_float(bits ^ 0x00400001u);
    out[o + 7] = isnan(x) ? 0u : as_uint(clamp(y, fmin(x, xb), fmax(x, xb)));
}
