// Fuzz seed 20470 (hls/examples/fuzz.rs), reduced: v1 &= min(min((uchar)gid * 0u, ..), ..)
// built `min` over a product with zero and a select whose condition had folded;
// Verilator proved `q < 0` constant (UNSIGNED) and refused the design. Compare folding
// now follows selects and knows a product with zero.

// A random well-defined kernel (seed 20470) from the project's fuzzer (hls/tests/fuzz): each work-item folds its values into a hash in out[].

#pragma OPENCL FP_CONTRACT OFF

uint mix(uint h, ulong v)
{
    h = (h ^ (uint)v) * 16777619u;
    h = (h ^ (uint)(v >> 32)) * 16777619u;
    return h ^ (h >> 15);
}

int sdiv32(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a / b; }
int smod32(int a, int b) { return (b == 0 || (a == INT_MIN && b == -1)) ? a : a % b; }
long sdiv64(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a / b; }
long smod64(long a, long b) { return (b == 0 || (a == LONG_MIN && b == -1)) ? a : a % b; }
uint udiv32(uint a, uint b) { return b == 0 ? a : a / b; }
uint umod32(uint a, uint b) { return b == 0 ? a : a % b; }
ulong udiv64(ulong a, ulong b) { return b == 0 ? a : a / b; }
ulong umod64(ulong a, ulong b) { return b == 0 ? a : a % b; }

__kernel void rk(__global uint *out, __global const int *in0, uint sa)
{
    __local uint lm[4];
    uint gid = get_global_id(0);
    ushort v0 = ((ushort)in0[(gid * 1u) & 255u]);
    uchar v1 = ((uchar)(sa + gid));
    char v2 = ((char)29);
    long v3 = ((long)in0[(gid * 4u) & 255u]);
    uint a0[8] = {((uint)gid), ((uint)gid), ((uint)v1), ((uint)in0[(((uint)v3)) & 255u]), ((uint)gid), ((uint)64386250u), ((uint)gid), ((uint)v3)};
    uint a1[8] = {((uint)4014589873u), ((uint)in0[(((uint)a0[(((uint)v0)) & 7u])) & 255u]), ((uint)a0[(((uint)v3)) & 7u]), ((uint)in0[(((uint)v0)) & 255u]), ((uint)in0[(((uint)gid)) & 255u]), ((uint)3226198987u), ((uint)a0[(((uint)3012263398u)) & 7u]), ((uint)a0[(((uint)v0)) & 7u])};
    float f0 = (float)gid * 0.75f;
    switch ((((uint)((uint)max(((uint)988915057u), ((uint)v1)) >> (((uint)(((uint)in0[(((uint)v3)) & 255u]) ^ ((uint)v1))) & 31u)))) % 4u) {
    case 0u: {
    } break;
    case 1u: {
        if (((char)(((char)8) >> (((uint)udiv32((uint)((uint)a1[(((uint)v1)) & 7u]), (uint)((uint)gid))) & 31u))) <= ((char)((char)((uint)((char)in0[(((uint)203802304u)) & 255u]) - (uint)((char)90))))) {
            switch ((((uint)((uint)((uint)udiv32((uint)((uint)v1), (uint)((uint)v2))) - (uint)((uint)gid)))) % 4u) {
            case 0u: {
                v1 &= min(min(((uchar)((uint)((uchar)gid) * (uint)((uchar)0u))), ((uchar)((uint)((uchar)2u) * (uint)((uchar)in0[(((uint)v3)) & 255u])))), ((uchar)popcount(((uchar)gid))));
            } break;
            case 1u: {
            } break;
            default: {
            } break;
            }
        } else {
        }
    } break;
    default: {
    } break;
    }
    uint h = 2166136261u;
    h = mix(h, isnan(f0) ? 0x7fc00000u : as_uint(f0));
    h = mix(h, (ulong)v0);
    h = mix(h, (ulong)v1);
    h = mix(h, (ulong)v2);
    h = mix(h, (ulong)v3);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a0[k]);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a1[k]);
    out[gid] = h;
}
