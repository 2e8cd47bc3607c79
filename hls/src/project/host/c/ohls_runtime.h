/* ohls_runtime.h: the host runtime of ocl-hls kernel cores. Open a device, allocate
 * buffers the cores can reach, copy data in and out, launch a kernel (arguments, sizes,
 * start, wait for DONE with a timeout) and turn a failure into a message.
 *
 * One API, two backends chosen when linking: ohls_de10.c (DE10-Nano HPS Linux: control
 * registers through the lightweight HPS-to-FPGA bridge, buffers in a reserved SDRAM
 * region) and ohls_sim.c (the Verilator model of the core, run by its harness).
 * Every call returns 0 on success or -1; ohls_last_error() says why. */
#ifndef OHLS_RUNTIME_H
#define OHLS_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Control registers of every core (rtl-templates/rtl/ohls_axil_csr.v). */
#define OHLS_REG_CONTROL 0x00u      /* bit 0 START (self-clearing) */
#define OHLS_REG_STATUS 0x04u       /* bit 0 DONE, bit 1 BUSY, bits 15:8 error code */
#define OHLS_REG_IRQ_ENABLE 0x08u   /* bit 0 done interrupt, bit 1 error interrupt */
#define OHLS_REG_IRQ_STATUS 0x0Cu   /* write 1 to clear: bit 0 done, bit 1 error */
#define OHLS_REG_GLOBAL_SIZE0 0x10u /* then 0x14, 0x18 */
#define OHLS_REG_LOCAL_SIZE0 0x1Cu  /* then 0x20, 0x24 */
#define OHLS_REG_NARGS 0x38u
#define OHLS_REG_MAGIC 0x3Cu
#define OHLS_MAGIC 0x4F484C53u /* "OHLS" */
#define OHLS_STATUS_DONE 0x1u
#define OHLS_STATUS_BUSY 0x2u
#define OHLS_STATUS_ERROR(s) (((s) >> 8) & 0xFFu)
/* Error code bits the core sets (hls/src/rtl/shell.rs). */
#define OHLS_ERR_READ_RESPONSE 0x01u
#define OHLS_ERR_WRITE_RESPONSE 0x02u
/* The launch's local size differs from the kernel's reqd_work_group_size. */
#define OHLS_ERR_LOCAL_SIZE 0x10u
/* A global size is not a multiple of the required local size. */
#define OHLS_ERR_GLOBAL_SIZE 0x11u

/* Default wait for DONE; change it with ohls_set_timeout. */
#define OHLS_DEFAULT_TIMEOUT_MS 10000u

typedef enum { OHLS_ARG_BUFFER, OHLS_ARG_SCALAR, OHLS_ARG_LOCAL } ohls_arg_kind;

/* One argument's registers as the generated header describes them. */
typedef struct {
    const char *name;
    ohls_arg_kind kind;
    uint32_t offset;    /* byte offset of the first register */
    uint32_t words;     /* 32-bit registers, low word first */
    uint32_t bytes;     /* scalars: the value's size */
    uint64_t max_bytes; /* __local: the most the core holds */
    int constant;       /* buffers: __constant (never written by the core) */
    char elem;          /* scalars: 'i' integer, 'f' floating point, 'h' half, 's' struct */
    uint32_t elem_bytes; /* scalars: bytes of one lane */
    uint32_t lanes;      /* scalars: lanes in memory (3-lane vectors take 4) */
} ohls_arg_desc;

/* A kernel core: where its registers are and which launches it takes. */
typedef struct {
    const char *name;
    const char *top;
    uint32_t csr_offset; /* inside the lightweight bridge's window */
    uint32_t nargs;      /* argument registers (the core's NARGS) */
    unsigned arg_count;
    const ohls_arg_desc *args;
    uint32_t max_local[3]; /* largest local size per dimension */
    uint64_t max_items;    /* largest work-group */
    int reqd;              /* 1: the local size must equal max_local */
    uint32_t addr_bits;    /* the cores' memory address width */
} ohls_kernel;

typedef struct ohls_dev ohls_dev;
typedef struct ohls_buf ohls_buf;

/* One argument value of a launch: a buffer, a scalar's bytes or a __local size. */
typedef struct {
    const ohls_buf *buf;
    const void *value;
    size_t size; /* scalar bytes, or __local bytes */
} ohls_arg;

/* Opens the device. `where`: the DE10 backend takes NULL (or a u-dma-buf name such as
 * "udmabuf0"); the simulation backend takes the model executable (NULL: the
 * OHLS_SIM_MODEL environment variable). On failure *dev may still be set, for
 * ohls_last_error; ohls_close it. */
int ohls_open(ohls_dev **dev, const char *where);
void ohls_close(ohls_dev *dev);
/* The message of the last failed call on `dev` (also for a NULL dev). */
const char *ohls_last_error(const ohls_dev *dev);
void ohls_set_timeout(ohls_dev *dev, unsigned timeout_ms);
/* Which backend this program was linked with: "de10" or "sim". */
const char *ohls_backend_name(void);

int ohls_buf_alloc(ohls_dev *dev, size_t bytes, ohls_buf **buf);
void ohls_buf_free(ohls_dev *dev, ohls_buf *buf);
size_t ohls_buf_size(const ohls_buf *buf);
/* The address the cores use for the buffer's first byte. */
uint64_t ohls_buf_addr(const ohls_buf *buf);
int ohls_buf_write(ohls_dev *dev, ohls_buf *buf, size_t offset, const void *src, size_t n);
int ohls_buf_read(ohls_dev *dev, const ohls_buf *buf, size_t offset, void *dst, size_t n);

/* Checks the launch against the core (local size, argument kinds and sizes), writes
 * the arguments and sizes (three dimensions; 1 in the unused ones), starts the core and waits for DONE within the timeout. A
 * nonzero error code in STATUS is a failure with its meaning in the message. */
int ohls_run(ohls_dev *dev, const ohls_kernel *k, const ohls_arg *args, const uint32_t global[3],
             const uint32_t local[3]);

/* The meaning of a STATUS error code. */
const char *ohls_error_code_text(uint32_t code);

#ifdef __cplusplus
}
#endif

#endif
