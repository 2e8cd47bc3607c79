// 16-lane vectors: .s0123 and hex-indexed swizzles (.sFEDC, .sa), swizzle writes,
// .lo.hi chains, and uchar16 arithmetic that wraps.
__kernel void vec16_swizzle(__global const uchar16 *in, __global uchar16 *out,
                            __global int *sums)
{
    size_t i = get_global_id(0);
    uchar16 v = in[i];
    uchar16 r;
    r.s0123 = v.sFEDC;                 /* reversed tail into the head */
    r.s4567 = v.s0123 + (uchar4)(250); /* wraps modulo 256 */
    r.s89ab = v.lo.hi;                 /* elements 4..7 */
    r.sCDEF = (uchar4)(v.sa, v.s5, v.s9, v.sf);
    out[i] = r;
    int16 w = convert_int16(v);
    int8 h = w.lo + w.hi;
    int4 q = h.lo + h.hi;
    int2 d = q.lo + q.hi;
    sums[i] = d.x + d.y;
}
