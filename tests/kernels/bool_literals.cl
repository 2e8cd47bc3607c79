// `bool`, `true` and `false` as OpenCL C predefines them: keywords of type bool (sizeof 1),
// `#if true` taken, flags set and tested, bools in arithmetic, in a ternary and returned
// from a helper.
#if true
#define TRUE_IN_IF 1
#else
#define TRUE_IN_IF 0
#endif
#if false
#error "false must be 0 in #if"
#endif

bool is_even(int v)
{
    if (v % 2 == 0)
        return true;
    return false;
}

__kernel void bool_literals(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    int v = in[i];
    bool found = false;
    bool all_small = true;
    for (int k = 0; k < 4; k++) {
        int w = in[(i + k) % 64];
        if (w > 50)
            found = true;
        if (w >= 30)
            all_small = false;
    }
    bool even = is_even(v);
    int count = (int)found + (int)all_small + even + true;
    out[4 * i] = found == true ? 1 : (found == false ? 2 : 3);
    out[4 * i + 1] = all_small != false;
    out[4 * i + 2] = count * 10 + (int)sizeof(true) + (int)sizeof(bool) * 100;
    out[4 * i + 3] = (even && !false) ? v : -v + TRUE_IN_IF;
}
