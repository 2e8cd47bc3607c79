// Shared by kernels in sibling folders, as vendor example trees lay them out: reached from
// tests/kernels/include_parent.cl by "../common/fpga_util.h". Its own include of
// "include_parent_cfg.h" is not beside it: it is found in the kernel's folder.
#ifndef FPGA_UTIL_H
#define FPGA_UTIL_H
#include "include_parent_cfg.h"

typedef struct {
    int sum;
    int max;
} stats_t;

inline int scaled(int v)
{
    return v * CFG_SCALE + CFG_BIAS;
}
#endif
