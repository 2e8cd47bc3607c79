// Configuration for include_parent.cl, included by ../common/fpga_util.h from this folder.
#define CFG_SCALE 3
#define CFG_BIAS (-7)
