// Fuzz seed 20114 (hls/examples/fuzz.rs), reduced: the i4 loop is pipelined at II 3 and
// its guarded 'v1 ^= -1' is v1's first write, 3 cycles before the unconditional last one,
// so the previous iteration's last write lands in the very cycle the guarded write reads
// the register for its else value. That read was not forwarded: Verilator gave
// out[5] = 0x9b0caf10 where POCL and the interpreter give 0xeb526de8.

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
    long v0 = ((long)in0[(gid * 1u) & 255u]);
    char v1 = ((char)(sa + gid));
    short v2 = ((short)-1);
    ushort a0[8] = {((ushort)gid), ((ushort)v0), ((ushort)5824u), ((ushort)in0[(((uint)v2)) & 255u]), ((ushort)127u), ((ushort)0u), ((ushort)1943u), ((ushort)v1)};
    char a1[8] = {((char)v2), ((char)gid), ((char)-118), ((char)92), ((char)in0[(((uint)v1)) & 255u]), ((char)-94), ((char)a0[(((uint)v0)) & 7u]), ((char)in0[(((uint)v2)) & 255u])};
    if (((int)867208) >= ((int)v0)) {
        if (((short)((short)a1[(((uint)v2)) & 7u])) >= ((short)clz(((short)((uint)((short)(((ushort)gid) <= ((ushort)a0[(((uint)v0)) & 7u]))) * (uint)((short)sdiv32((int)((short)v2), (int)((short)2)))))))) {
            v0 ^= ((long)((ulong)((long)(((long)((ulong)((long)-3897878185620651666L) << (((uint)in0[(((uint)v1)) & 255u]) & 63u))) ^ ((long)(((long)gid) >> (((uint)2790768109u) & 63u))))) - (ulong)((long)541L)));
        }
    }
    switch ((((uint)umod32((uint)((uint)1u), (uint)((uint)in0[(((uint)in0[(((uint)v1)) & 255u])) & 255u])))) % 4u) {
    case 0u: {
    } break;
    case 1u: {
        for (uint i4 = 0; i4 < 4u; i4++) {
            if (((uint)(((int)a0[(((uint)a1[(((uint)255u)) & 7u])) & 7u]) == ((int)i4))) >= ((uint)((((char)a0[(((uint)v0)) & 7u]) > ((char)13)) ? ((uint)i4) : ((uint)v1)))) {
                v1 ^= ((char)((char)-1));
            }
            v1 ^= ((char)((ulong)((ulong)((ulong)in0[(((uint)v0)) & 255u]) - (ulong)((ulong)v0))));
        }
    } break;
    default: {
    } break;
    }
    uint h = 2166136261u;
    h = mix(h, (ulong)v0);
    h = mix(h, (ulong)v1);
    h = mix(h, (ulong)v2);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a0[k]);
    for (uint k = 0; k < 8u; k++) h = mix(h, (ulong)a1[k]);
    out[gid] = h;
}
