// NaN bits as the interpreter defines them, after x86 with AVX-512 (where POCL gives the
// same; elsewhere LLVM may swap a commutative op's operands, so the spec marks these
// buffers implementation_defined): + - * / return the first NaN operand quieted
// (a | 0x400000, sign and payload kept), else the second's, else the negative default
// NaN 0xFFC00000 for an invalid operation (inf - inf, 0 * inf, 0 / 0, inf / inf); -x
// flips the sign only. Half conversions: a half NaN widens with its payload, quieted;
// a float NaN narrows to 0x7FFF (scalar store) or 0x7E00 (vector store), sign kept.
// Vector stores use NaNs without payload bits 22..13 (see below).
// Out-of-range and NaN float -> integer conversions give x86's values.
#pragma OPENCL FP_CONTRACT OFF
__kernel void nan_bits(__global const float *x, __global const ushort *hn,
                       __global uint *out, __global ulong *wide, __global half *ho)
{
    size_t i = get_global_id(0);
    uint k = (uint)i;
    float v = x[i];
    /* Payloads from the id: signalling (bit 22 clear) for even k, both signs. */
    float na = as_float(0x7F800001u | ((k * 0x9E3779u) & 0x3FFFFFu) | ((k & 1u) << 22) |
                        ((k & 2u) << 30));
    float nb = as_float(0xFF800002u | ((k * 0x51ED27u) & 0x7FFFFFu));
    float inf = v * INFINITY;
    float zero = v - v;
    size_t o = 16 * i;
    out[o + 0] = as_uint(na + v);
    out[o + 1] = as_uint(v + na);
    out[o + 2] = as_uint(na - nb);
    out[o + 3] = as_uint(nb * na);
    out[o + 4] = as_uint(v / nb);
    out[o + 5] = as_uint(na / v);
    out[o + 6] = as_uint(inf - inf);
    out[o + 7] = as_uint(zero * inf);
    out[o + 8] = as_uint(zero / zero);
    out[o + 9] = as_uint(inf / -inf);
    out[o + 10] = as_uint(inf + -inf);
    out[o + 11] = as_uint(nb - na);
    float2 p = (float2)(na, v) * (float2)(v, nb);
    out[o + 12] = as_uint(p.x);
    out[o + 13] = as_uint(p.y);
    out[o + 14] = as_uint(vload_half(i, (__global const half *)hn));
    out[o + 15] = as_uint(-na);
    size_t w = 8 * i;
    wide[w + 0] = (ulong)(uint)na | ((ulong)convert_uint(-v) << 32);
    wide[w + 1] = (ulong)na;
    wide[w + 2] = (ulong)(v * 1e30f);
    wide[w + 3] = (ulong)(long)nb;
    wide[w + 4] = (ulong)convert_long(-v * 1e30f);
    wide[w + 5] = convert_ulong(-v);
    wide[w + 6] = (ulong)(uchar)na | ((ulong)(ushort)(-v) << 8) | ((ulong)convert_int_sat(nb) << 32);
    wide[w + 7] = (ulong)convert_uint_rtn(-v * 0.01f) | ((ulong)convert_uint_rte(v * -0.004f) << 32);
    vstore_half(na, i, ho);
    /* Vector half stores: only payload bits below the half's reach (POCL keeps payload
       bits 22..13 there, the interpreter gives 0x7E00 for every NaN). */
    float nq = as_float(0x7F800001u | (k & 0x1FFFu) | ((k & 1u) << 22));
    vstore_half4((float4)(nq, v, -nq, as_float(0xFFC00000u)), i, ho + 32);
}
