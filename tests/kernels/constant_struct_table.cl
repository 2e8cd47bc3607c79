// A __constant table of structs (with a float, a short and a char array member) read
// with a data-dependent index, plus a __constant scalar table indexed from it.
#pragma OPENCL FP_CONTRACT OFF
typedef struct {
    float scale;
    short offset;
    char name[3];
} entry_t;

__constant entry_t table[5] = {
    {1.5f, -3, {'a', 'b', 'c'}},
    {-2.0f, 100, {'d', 'e', 'f'}},
    {0.25f, 7, {'g', 'h', 'i'}},
    {10.0f, -1000, {'j', 'k', 'l'}},
    {3.0f, 0, {'m', 'n', 'o'}},
};

__constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};

__kernel void constant_struct_table(__global const uint *idx, __global const float *x,
                                    __global float *out, __global int *meta)
{
    size_t i = get_global_id(0);
    uint k = idx[i] % 5u;
    entry_t e = table[k];
    out[i] = x[i] * e.scale + (float)e.offset;
    meta[i] = e.name[i % 3] * primes[(k + i) & 7];
}
