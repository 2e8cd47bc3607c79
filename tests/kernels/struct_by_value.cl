// Structs passed to and returned from helper functions by value, struct assignment and
// a struct with a nested struct and an array member; the callee's changes stay local.
typedef struct { float x, y; } vec2_t;
typedef struct { vec2_t p; int tag[2]; } item_t;

vec2_t add2(vec2_t a, vec2_t b)
{
    vec2_t r;
    r.x = a.x + b.x;
    r.y = a.y + b.y;
    return r;
}

item_t bump(item_t it, int k)
{
    it.tag[0] += k;          /* changes the copy only */
    it.tag[1] = it.tag[0] * 2;
    it.p = add2(it.p, it.p);
    return it;
}

__kernel void struct_by_value(__global const float *in, __global float *out, __global int *tags)
{
    size_t i = get_global_id(0);
    item_t a;
    a.p.x = in[2 * i];
    a.p.y = in[2 * i + 1];
    a.tag[0] = (int)i;
    a.tag[1] = -1;
    item_t b = bump(a, 3);
    item_t c = b;            /* struct copy */
    c.p.x = -c.p.x;
    out[2 * i] = c.p.x;
    out[2 * i + 1] = b.p.y;
    tags[2 * i] = a.tag[0] * 1000 + b.tag[0];
    tags[2 * i + 1] = b.tag[1] + a.tag[1];
}
