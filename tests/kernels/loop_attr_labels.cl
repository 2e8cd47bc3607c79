// Loop attributes as AMD's examples write them: before a labelled loop, several lists in a
// row and several attributes in one list, xcl_loop_tripcount on a loop whose count depends
// on data, an attribute after a label, and labelled statements that are not loops.
#define N 16

__kernel void loop_attr_labels(__global const int *in, __global int *out)
{
    size_t g = get_global_id(0);
    int acc = 0;
    __attribute__((xcl_pipeline_loop(1)))
    read_row: for (int j = 0; j < N; j++) {
        acc += in[(g * N + j) % 1024];
    }

    int steps = 0;
    int v = in[g] & 255;
    __attribute__((xcl_pipeline_loop(1))) __attribute__((xcl_loop_tripcount(0, 8, 4)))
    collatz: while (v > 1 && steps < 8) {
        v = (v & 1) ? 3 * v + 1 : v / 2;
        steps++;
    }

    int folded = 0;
    __attribute__((xcl_pipeline_loop, xcl_loop_tripcount(4, 4)))
    fold: for (int j = 0; j < 4; j++)
        outer_body: {
            folded = folded * 3 + in[(g + j) % 1024];
        }

    int twice = 0;
    twice_loop: [[cl::unroll_hint(2)]]
    for (int j = 0; j < 4; j++)
        twice += j;

    nested: inner_label: __attribute__((xcl_pipeline_loop))
    for (int j = 0; j < 3; j++)
        twice -= 1;

store:
    out[4 * g] = acc;
    out[4 * g + 1] = steps * 1000 + v;
    out[4 * g + 2] = folded;
    out[4 * g + 3] = twice;
}
