// Conversions with explicit rounding and saturation: float -> int with _rtz/_rte/
// _rtp/_rtn, _sat_rtz into char/uchar/short, NaN to 0 under _sat, and int -> float
// with _rtz/_rtp (values above 2^24 are not exact).
__kernel void convert_rounding(__global const float *f, __global const int *big,
                               __global int *iout, __global float *fout)
{
    size_t i = get_global_id(0);
    float x = f[i];
    iout[8 * i] = convert_int_rtz(x);
    iout[8 * i + 1] = convert_int_rte(x);
    iout[8 * i + 2] = convert_int_rtp(x);
    iout[8 * i + 3] = convert_int_rtn(x);
    iout[8 * i + 4] = convert_char_sat_rtz(x * 20.0f);
    iout[8 * i + 5] = convert_uchar_sat_rtz(x * 40.0f);
    iout[8 * i + 6] = convert_short_sat_rte(x * 5000.0f);
    iout[8 * i + 7] = convert_int_sat(x * 1e9f) + convert_int_sat(i == 0 ? NAN : 0.0f);
    fout[2 * i] = convert_float_rtz(big[i]);
    fout[2 * i + 1] = convert_float_rtp(big[i]);
}
