/* ohls_backend.h: what ohls_runtime.c needs from a backend (ohls_de10.c, ohls_sim.c).
 * Not part of the API: host programs include ohls_runtime.h only. */
#ifndef OHLS_BACKEND_H
#define OHLS_BACKEND_H

#include "ohls_runtime.h"

struct ohls_buf {
    uint64_t addr;       /* as the cores see it */
    size_t size;
    unsigned char *host; /* the backend's view of the bytes */
    unsigned index;      /* unique per device, for the backend's bookkeeping */
    ohls_buf *next;
};

struct ohls_be;

struct ohls_dev {
    char err[2048];
    unsigned timeout_ms;
    ohls_buf *bufs; /* sorted by address */
    unsigned next_index;
    /* Where buffers may go, and the unmapped gap the allocator leaves after each buffer
     * (in units of the buffer's own size: 0 on the board, 1 in the simulation so that an
     * overrun faults instead of landing in the next buffer). */
    uint64_t window_base, window_size;
    unsigned gap_factor;
    struct ohls_be *be;
};

/* Sets dev's message (printf-style) and returns -1. */
int ohls_fail(ohls_dev *dev, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int ohls_be_open(ohls_dev *dev, const char *where);
void ohls_be_close(ohls_dev *dev);
/* Gives `buf` (addr and size set) its host view. */
int ohls_be_alloc(ohls_dev *dev, ohls_buf *buf);
void ohls_be_free(ohls_dev *dev, ohls_buf *buf);
int ohls_be_copy_in(ohls_dev *dev, ohls_buf *buf, size_t offset, const void *src, size_t n);
int ohls_be_copy_out(ohls_dev *dev, const ohls_buf *buf, size_t offset, void *dst, size_t n);
/* Is `k`'s core there (magic, argument count)? */
int ohls_be_check(ohls_dev *dev, const ohls_kernel *k);
int ohls_be_write_reg(ohls_dev *dev, const ohls_kernel *k, uint32_t reg, uint32_t value);
/* Starts `k` (its registers written) and waits for DONE within dev->timeout_ms; *status
 * is STATUS at the end. A timeout or a backend fault is an error. */
int ohls_be_start_wait(ohls_dev *dev, const ohls_kernel *k, uint32_t *status);

#endif
