// Reads of private memory before any write, where the value never reaches an output: a
// shift register that fills over the first iterations (its taps read before they are
// filled, as FPGA code writes it), and a struct with one field set that is copied whole.
// C makes such values indeterminate, not the program undefined: the run warns and goes on.
#define TAPS 8

typedef struct {
    int value;
    int spare;      /* never set: copied along with the struct */
    float weight;
} item_t;

item_t pass_through(item_t it)
{
    return it;
}

__kernel void uninit_private(__global const int *in, __global int *out)
{
    size_t g = get_global_id(0);
    int sr[TAPS];
    int acc = 0;
    for (int k = 0; k < 24; k++) {
        #pragma unroll
        for (int j = TAPS - 1; j > 0; j--)
            sr[j] = sr[j - 1];          /* taps not yet filled are read in the first iterations */
        sr[0] = in[(g * 24 + k) % 512];
        if (k >= TAPS - 1)
            acc += sr[0] - sr[TAPS - 1];
    }
    item_t it;
    it.value = in[g];
    it.weight = 0.5f;
    item_t copy = pass_through(it);
    out[2 * g] = acc;
    out[2 * g + 1] = copy.value * 2 + (int)(copy.weight * 4.0f);
}
