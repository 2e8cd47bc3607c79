// Arrays of packed and of aligned structs in global memory: the element stride is the
// struct size (7 bytes packed, 16 bytes aligned), read and written in place.
typedef struct __attribute__((packed)) {
    uchar tag;
    int value;
    short delta;
} packed_t;                                   /* sizeof == 7, align 1 */

typedef struct {
    short s;
    int v __attribute__((aligned(8)));
} aligned_t;                                  /* v at offset 8, sizeof == 16 */

__kernel void packed_aligned_array(__global packed_t *p, __global aligned_t *a,
                                   __global int *sizes)
{
    size_t i = get_global_id(0);
    packed_t x = p[i];
    x.value = (int)((uint)x.value + (uint)(x.delta * (int)x.tag));   /* wraps */
    x.tag = (uchar)(x.tag + 1);
    p[i] = x;
    a[i].s = (short)(x.delta - 1);
    a[i].v = x.value ^ (int)i;
    if (i == 0) {
        sizes[0] = sizeof(packed_t);
        sizes[1] = sizeof(aligned_t);
        sizes[2] = __alignof__(aligned_t);
        sizes[3] = (int)((__global char *)&a[1] - (__global char *)&a[0]);
    }
}
