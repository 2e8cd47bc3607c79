// Under-aligned loads in a pipelined work-item loop: members of packed structs at odd
// offsets (a float, a ushort) and an int at a 2-byte boundary, each in a buffer that also
// has a wider (ulong) load. A buffer's pipelined load unit is as wide as its widest load
// and a narrower load reads the unit's element holding it, so the loops stage splits
// these into aligned pieces (hls/src/loops/split.rs) rather than leave the loop unpipelined.
typedef struct __attribute__((packed)) {
    uchar tag;
    float f;      /* offset 1 */
    ulong u;      /* offset 5 */
    ushort s;     /* offset 13 */
} rec_t;          /* sizeof == 15 */

typedef struct __attribute__((packed, aligned(2))) {
    short a;
    int b;        /* offset 2: aligned to 2 */
    long c;       /* offset 6 */
} pair_t;         /* sizeof == 14 */

__kernel void packed_loads(__global const rec_t *r, __global const pair_t *p,
                           __global ulong *out)
{
    size_t i = get_global_id(0);
    out[2 * i] = r[i].u + (ulong)r[i].s * r[i].tag + as_uint(r[i].f);
    out[2 * i + 1] = (ulong)(p[i].c ^ (long)p[i].b) + (ulong)(ushort)p[i].a;
}
