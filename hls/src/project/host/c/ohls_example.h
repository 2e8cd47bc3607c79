/* ohls_example.h: the command line of the example host programs (NAME_main.c): launch
 * sizes, the device, and one NAME=VALUE per kernel argument; buffers come from files and
 * go back to files. Each helper prints its own error and returns -1. */
#ifndef OHLS_EXAMPLE_H
#define OHLS_EXAMPLE_H

#include "ohls_runtime.h"

#define OHLS_CLI_MAX_ARGS 64

typedef struct {
    const char *prog;
    const char *device;
    unsigned timeout_ms;
    uint32_t global[3];
    uint32_t local[3];
    const char *out_dir;
    const char *values[OHLS_CLI_MAX_ARGS]; /* per kernel argument: the text after NAME= */
    int reported;                          /* an error was printed already */
} ohls_cli;

/* Parses argv for kernel `k`; prints the usage on a mistake. */
int ohls_cli_parse(ohls_cli *cli, int argc, char **argv, const ohls_kernel *k);
/* Argument `i`, a buffer: NAME=@FILE (its bytes) or NAME=zero:BYTES. */
int ohls_cli_buffer(ohls_cli *cli, ohls_dev *dev, const ohls_kernel *k, unsigned i, ohls_buf **out);
/* Argument `i`, a scalar, into `dst` (the argument's size): NAME=NUMBER (vector lanes
 * separated by commas) or NAME=@FILE (its raw bytes). */
int ohls_cli_scalar(ohls_cli *cli, const ohls_kernel *k, unsigned i, void *dst);
/* Argument `i`, a __local pointer: NAME=BYTES. */
int ohls_cli_local(ohls_cli *cli, const ohls_kernel *k, unsigned i, size_t *bytes);
/* Writes buffer argument `i` to OUT/NAME.bin. */
int ohls_cli_save(ohls_cli *cli, ohls_dev *dev, const ohls_kernel *k, unsigned i, const ohls_buf *buf);
/* Prints the device's last error unless a helper printed one. */
void ohls_cli_report(ohls_cli *cli, const ohls_dev *dev);

#endif
