// Saturating integer conversions between every width and signedness, 64-bit integers to
// float in each rounding mode (values above 2^24 round), and float to 64-bit integers
// with rounding and saturation, on values spread over 2^0 .. 2^69 (beyond both 64-bit
// ranges), scalar and vector.
__kernel void convert_sat_wide(__global const long *l, __global const float *f,
                               __global long *out, __global uint *fbits)
{
    size_t i = get_global_id(0);
    long x = l[i] >> (i % 61);                /* every magnitude */
    ulong ux = (ulong)l[i] << (i % 7);
    int n = (int)(x >> 3);
    uint un = (uint)x;
    char c = (char)x;
    float v = f[i] * as_float((127u + (uint)(i % 70)) << 23);   /* f * 2^(i % 70) */
    size_t o = 24 * i;
    out[o + 0] = convert_char_sat(x);
    out[o + 1] = convert_uchar_sat(x);
    out[o + 2] = convert_short_sat(n);
    out[o + 3] = convert_ushort_sat(n);
    out[o + 4] = convert_int_sat(x);
    out[o + 5] = convert_uint_sat(x);
    out[o + 6] = convert_long_sat(ux);
    out[o + 7] = (long)convert_ulong_sat(x);
    out[o + 8] = convert_uint_sat(c);
    out[o + 9] = convert_char_sat(un);
    out[o + 10] = convert_int_sat(un);
    out[o + 11] = convert_uint_sat(n);
    out[o + 12] = convert_uchar_sat(ux);
    out[o + 13] = (long)as_uint(convert_uchar4_sat((int4)(n, -n, n >> 20, 300)));
    out[o + 14] = convert_long_rtn(v);
    out[o + 15] = (long)convert_ulong_sat_rte(v);
    out[o + 16] = convert_long_sat(v);
    out[o + 17] = convert_long_sat_rtp(v);
    out[o + 18] = (long)convert_ulong_rtz(v);
    out[o + 19] = as_long(convert_uint2_sat_rte((float2)(v, -v)));
    out[o + 20] = as_long(convert_int2_sat((float2)(v, -v)));
    out[o + 21] = convert_long_rte(v);
    out[o + 22] = (long)convert_ushort_sat_rtn(v) | ((long)convert_short_sat_rtp(-v) << 16);
    out[o + 23] = (long)convert_char_rtz(v);
    size_t b = 6 * i;
    fbits[b + 0] = as_uint(convert_float(x));
    fbits[b + 1] = as_uint(convert_float_rtz(x));
    fbits[b + 2] = as_uint(convert_float_rtp(x));
    fbits[b + 3] = as_uint(convert_float_rtn(x));
    fbits[b + 4] = as_uint(convert_float_rtp(ux));
    fbits[b + 5] = as_uint(convert_float_rtn(ux));
}
