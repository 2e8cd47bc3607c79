// Scalar arguments of every integer width, both signs, and a float: each work-item writes
// every value it got (plus its id, so the lanes differ) to its row of `out`.
__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void scalar_widths(__global long *out, char c, uchar uc, short s, ushort us, int i, uint ui,
                   long l, ulong ul, float f)
{
    size_t g = get_global_id(0);
    size_t o = g * 9;
    long k = (long)g;
    out[o + 0] = c + k;
    out[o + 1] = uc + k;
    out[o + 2] = s + k;
    out[o + 3] = us + k;
    out[o + 4] = i + k;
    out[o + 5] = ui + k;
    out[o + 6] = l + k;
    out[o + 7] = (long)(ul >> 1) + k;
    out[o + 8] = as_int(f) + k;
}
