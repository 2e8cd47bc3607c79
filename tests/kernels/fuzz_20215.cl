// Fuzz seed 20215 (hls/examples/fuzz.rs), reduced: min(min((short)v2, 32767), max(...)) of
// constants reaches the datapath as a signed 16-bit compare, (x ^ 16'h8000) < (y ^ 16'h8000),
// of two wires holding constants. Verilator proved it constant (CMPCONST) and refused
// the design; the emitter's compare folding now evaluates such constant operands.

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
    uchar v0 = ((uchar)in0[(gid * 1u) & 255u]);
    ushort v1 = ((ushort)(sa + gid));
    long v2 = ((long)4201197794609121L);
    char a0[8] = {((char)24), ((char)7), ((char)gid), ((char)gid), ((char)gid), ((char)gid), ((char)in0[(((uint)v0)) & 255u]), ((char)v2)};
    int a1[8] = {((int)v0), ((int)-121576964), ((int)gid), ((int)gid), ((int)a0[(((uint)gid)) & 7u]), ((int)in0[(((uint)v2)) & 255u]), ((int)1), ((int)v1)};
    float f0 = (float)gid * 0.75f;
    if (((short)((uint)((short)-1) - (uint)((short)a1[(((uint)in0[(((uint)v0)) & 255u])) & 7u]))) <= ((short)((((ulong)in0[(((uint)v1)) & 255u]) < ((ulong)a0[(((uint)v1)) & 7u])) ? ((short)71) : ((short)v1)))) {
        if (((uchar)udiv32((uint)((uchar)((uint)((uchar)0u) << (((uint)v1) & 31u))), (uint)((uchar)v0))) != ((uchar)(((uchar)(((uchar)v0) <= ((uchar)255u))) | ((uchar)((uint)((uchar)21u) >> (((uint)in0[(((uint)in0[(((uint)v2)) & 255u])) & 255u]) & 31u)))))) {
            if (((ulong)((ulong)((ulong)(((ulong)((ulong)((ulong)a0[(((uint)v1)) & 7u]) + (ulong)((ulong)63UL))) | ((ulong)((ulong)((ulong)v1) + (ulong)((ulong)16880069732751005UL))))) >> (((uint)(((uint)(((uint)v2) | ((uint)0u))) & ((uint)(((char)in0[(((uint)v0)) & 255u]) > ((char)in0[(((uint)in0[(((uint)v1)) & 255u])) & 255u]))))) & 63u))) > ((ulong)min(min(((short)v2), ((short)32767)), max(((short)-32086), ((short)20632))))) {
            } else {
            }
        } else {
        }
    }
    uint h = 2166136261u;
    h = mix(h, isnan(f0) ? 0x7fc00000u : as_uint(f0));
    h = mix(h, (ulong)v0);
    h = mix(h, (ulong)v1);
    h = mix(h, (ulong)v2);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a0[k]);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a1[k]);
    out[gid] = h;
}
