// A load that reads what the same work-item just stored, through an index the compiler
// cannot prove equal to the store's (`i * stride`, with stride 1 at launch): the opt
// stage cannot forward the stored value, so the pipelined loop must issue the load only
// once the memory has acknowledged the store. The second store goes to `p[i + shift]`
// (shift 0 at launch) and is read back the same way, after a multiply in between.
__kernel void store_load_alias(__global int *p, __global int *out, int stride, int shift)
{
    size_t i = get_global_id(0);
    p[i] = p[i] * 5 + (int)i;
    int back = p[i * stride];
    p[i + shift] = back * back - 7;
    int again = p[i];
    out[i] = back + 3 * again;
}
