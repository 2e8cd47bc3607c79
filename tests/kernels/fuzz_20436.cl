// Fuzz seed 20436 (hls/examples/fuzz.rs), reduced: max(4294967295u, v1) < (uint)(uchar)gid.
// The emitter folded the select's own compare (nothing exceeds all-ones) and left
// `1'h0 ? x : 32'hffffffff`; Verilator saw through the select that the outer compare is
// constant (CMPCONST) and refused the design. Compare folding now follows selects.

// A random well-defined kernel (seed 20436) from the project's fuzzer (hls/tests/fuzz): each work-item folds its values into a hash in out[].

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
    ushort v1 = ((ushort)(sa + gid));
    short v2 = ((short)0);
    uchar a0[8] = {((uchar)255u), ((uchar)gid), ((uchar)gid), ((uchar)v2), ((uchar)gid), ((uchar)gid), ((uchar)gid), ((uchar)gid)};
    float f0 = (float)gid * 0.75f;
    if (((uchar)(~((uchar)in0[(((uint)v0)) & 255u]))) != ((uchar)(((uchar)in0[(((uint)v2)) & 255u]) ^ ((uchar)v1)))) {
        if (((char)((uint)((char)in0[(((uint)v0)) & 255u]) * (uint)((char)-113))) > ((char)((((ulong)in0[(((uint)v0)) & 255u]) > ((ulong)in0[(((uint)v0)) & 255u])) ? ((char)-59) : ((char)90)))) {
            if (((uint)((uint)((uint)((ulong)((ulong)((ulong)v0) >> (((uint)v0) & 63u)))) * (uint)((uint)(max(((uint)4294967295u), ((uint)v1)) < ((uint)((uchar)gid)))))) >= ((uint)((uint)((uint)(-(uint)((uint)((uint)((uint)1u) - (uint)((uint)2523734840u))))) * (uint)((uint)((uint)((uint)(((uint)v1) & ((uint)32767u))) * (uint)((uint)4294967295u)))))) {
            }
        } else {
        }
    } else {
    }
    uint h = 2166136261u;
    h = mix(h, isnan(f0) ? 0x7fc00000u : as_uint(f0));
    h = mix(h, (ulong)v0);
    h = mix(h, (ulong)v1);
    h = mix(h, (ulong)v2);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a0[k]);
    out[gid] = h;
}
