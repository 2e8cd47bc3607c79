/* ohls_runtime.c: the backend-independent part of the runtime: errors, the buffer
 * allocator, and the launch (checks, argument and size registers, start and wait). The
 * same file runs on the board and against the Verilator model. */
#include "ohls_backend.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN 4096u

static char no_dev_err[512];

int ohls_fail(ohls_dev *dev, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (dev)
        vsnprintf(dev->err, sizeof dev->err, fmt, ap);
    else
        vsnprintf(no_dev_err, sizeof no_dev_err, fmt, ap);
    va_end(ap);
    return -1;
}

const char *ohls_last_error(const ohls_dev *dev) {
    return dev ? dev->err : no_dev_err;
}

int ohls_open(ohls_dev **out, const char *where) {
    *out = NULL;
    ohls_dev *dev = calloc(1, sizeof *dev);
    if (!dev) return ohls_fail(NULL, "out of memory");
    dev->timeout_ms = OHLS_DEFAULT_TIMEOUT_MS;
    *out = dev;
    return ohls_be_open(dev, where);
}

void ohls_close(ohls_dev *dev) {
    if (!dev) return;
    while (dev->bufs) ohls_buf_free(dev, dev->bufs);
    ohls_be_close(dev);
    free(dev);
}

void ohls_set_timeout(ohls_dev *dev, unsigned timeout_ms) {
    dev->timeout_ms = timeout_ms;
}

static uint64_t align_up(uint64_t v) {
    return (v + ALIGN - 1) / ALIGN * ALIGN;
}

/* The unmapped bytes left after a buffer of `size` bytes. */
static uint64_t gap(const ohls_dev *dev, uint64_t size) {
    if (dev->gap_factor == 0) return 0;
    uint64_t g = size * dev->gap_factor;
    return g < ALIGN ? ALIGN : g;
}

/* First fit in the window, each buffer followed by its gap. */
int ohls_buf_alloc(ohls_dev *dev, size_t bytes, ohls_buf **out) {
    *out = NULL;
    if (bytes == 0) return ohls_fail(dev, "cannot allocate a buffer of 0 bytes");
    uint64_t need = align_up(bytes);
    uint64_t at = dev->window_base;
    ohls_buf **link = &dev->bufs;
    for (ohls_buf *b = dev->bufs; b; b = b->next) {
        if (at + need + gap(dev, need) <= b->addr) break;
        at = align_up(b->addr + b->size + gap(dev, b->size));
        link = &b->next;
    }
    if (at + need > dev->window_base + dev->window_size)
        return ohls_fail(dev,
                         "cannot allocate %zu bytes: the buffer memory (%#" PRIx64
                         ", %" PRIu64 " bytes) is full",
                         bytes, dev->window_base, dev->window_size);
    ohls_buf *b = calloc(1, sizeof *b);
    if (!b) return ohls_fail(dev, "out of memory");
    b->addr = at;
    b->size = bytes;
    b->index = dev->next_index++;
    if (ohls_be_alloc(dev, b) != 0) {
        free(b);
        return -1;
    }
    b->next = *link;
    *link = b;
    *out = b;
    return 0;
}

void ohls_buf_free(ohls_dev *dev, ohls_buf *buf) {
    if (!buf) return;
    for (ohls_buf **link = &dev->bufs; *link; link = &(*link)->next) {
        if (*link == buf) {
            *link = buf->next;
            break;
        }
    }
    ohls_be_free(dev, buf);
    free(buf);
}

size_t ohls_buf_size(const ohls_buf *buf) {
    return buf->size;
}

uint64_t ohls_buf_addr(const ohls_buf *buf) {
    return buf->addr;
}

static int check_range(ohls_dev *dev, const ohls_buf *buf, size_t offset, size_t n) {
    if (offset > buf->size || n > buf->size - offset)
        return ohls_fail(dev, "bytes %zu..%zu are outside the buffer of %zu bytes", offset,
                         offset + n, buf->size);
    return 0;
}

int ohls_buf_write(ohls_dev *dev, ohls_buf *buf, size_t offset, const void *src, size_t n) {
    if (check_range(dev, buf, offset, n) != 0) return -1;
    return ohls_be_copy_in(dev, buf, offset, src, n);
}

int ohls_buf_read(ohls_dev *dev, const ohls_buf *buf, size_t offset, void *dst, size_t n) {
    if (check_range(dev, buf, offset, n) != 0) return -1;
    return ohls_be_copy_out(dev, buf, offset, dst, n);
}

const char *ohls_error_code_text(uint32_t code) {
    switch (code) {
    case 0: return "no error";
    case OHLS_ERR_READ_RESPONSE:
        return "a read got an error response from memory (an address the memory port does "
               "not map?)";
    case OHLS_ERR_WRITE_RESPONSE:
        return "a write got an error response from memory (an address the memory port does "
               "not map?)";
    case OHLS_ERR_READ_RESPONSE | OHLS_ERR_WRITE_RESPONSE:
        return "reads and writes got error responses from memory (addresses the memory port "
               "does not map?)";
    case OHLS_ERR_LOCAL_SIZE:
        return "the local size differs from the kernel's reqd_work_group_size";
    case OHLS_ERR_GLOBAL_SIZE:
        return "a global size is not a multiple of the required local size";
    default: return "an error code this runtime does not know";
    }
}

/* The checks the core's work-item loops rely on (hls/src/workitems: group_launch). */
static int check_sizes(ohls_dev *dev, const ohls_kernel *k, const uint32_t global[3],
                       const uint32_t local[3]) {
    uint64_t items = 1;
    for (int d = 0; d < 3; d++) {
        if (global[d] == 0) return ohls_fail(dev, "kernel %s: global size 0 in dimension %d", k->name, d);
        if (local[d] == 0 || global[d] % local[d] != 0)
            return ohls_fail(dev,
                             "kernel %s: local size %" PRIu32
                             " does not divide global size %" PRIu32 " in dimension %d",
                             k->name, local[d], global[d], d);
        if (local[d] > k->max_local[d])
            return ohls_fail(dev,
                             "kernel %s: local size %" PRIu32
                             " in dimension %d exceeds the core's maximum %" PRIu32,
                             k->name, local[d], d, k->max_local[d]);
        items *= local[d];
    }
    if (items > k->max_items)
        return ohls_fail(dev,
                         "kernel %s: a work-group of %" PRIu64
                         " work-items exceeds the core's maximum %" PRIu64,
                         k->name, items, k->max_items);
    if (k->reqd && (local[0] != k->max_local[0] || local[1] != k->max_local[1] ||
                    local[2] != k->max_local[2]))
        return ohls_fail(dev,
                         "kernel %s: the core requires local size (%" PRIu32 ", %" PRIu32
                         ", %" PRIu32 ") (reqd_work_group_size), the launch gives (%" PRIu32
                         ", %" PRIu32 ", %" PRIu32 ")",
                         k->name, k->max_local[0], k->max_local[1], k->max_local[2], local[0],
                         local[1], local[2]);
    return 0;
}

/* Writes `n` bytes as `words` little-endian registers from `reg`, zero-padded. */
static int write_words(ohls_dev *dev, const ohls_kernel *k, uint32_t reg, uint32_t words,
                       const unsigned char *bytes, size_t n) {
    for (uint32_t w = 0; w < words; w++) {
        uint32_t v = 0;
        for (uint32_t i = 0; i < 4; i++) {
            size_t at = (size_t)w * 4 + i;
            if (at < n) v |= (uint32_t)bytes[at] << (8 * i);
        }
        if (ohls_be_write_reg(dev, k, reg + 4 * w, v) != 0) return -1;
    }
    return 0;
}

static int write_arg(ohls_dev *dev, const ohls_kernel *k, const ohls_arg_desc *a,
                     const ohls_arg *v) {
    unsigned char bytes[12];
    switch (a->kind) {
    case OHLS_ARG_BUFFER: {
        if (!v->buf) return ohls_fail(dev, "kernel %s: argument %s needs a buffer", k->name, a->name);
        uint64_t end = v->buf->addr + v->buf->size;
        if (k->addr_bits < 64 && end > ((uint64_t)1 << k->addr_bits))
            return ohls_fail(dev,
                             "kernel %s: buffer %s ends at %#" PRIx64
                             ", beyond the cores' %" PRIu32 "-bit addresses",
                             k->name, a->name, end, k->addr_bits);
        if ((uint64_t)v->buf->size >> 32)
            return ohls_fail(dev, "kernel %s: buffer %s has %zu bytes; a core takes at most 4 GiB - 1",
                             k->name, a->name, v->buf->size);
        for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(v->buf->addr >> (8 * i));
        /* The third word is the buffer's size in bytes: the core checks with it that
         * buffers it pipelines under a no-overlap assumption really do not overlap. */
        for (int i = 0; i < 4; i++) bytes[8 + i] = (unsigned char)((uint64_t)v->buf->size >> (8 * i));
        return write_words(dev, k, a->offset, a->words, bytes, sizeof bytes);
    }
    case OHLS_ARG_SCALAR:
        if (!v->value || v->size != a->bytes)
            return ohls_fail(dev, "kernel %s: argument %s takes %" PRIu32 " bytes, the launch gives %zu",
                             k->name, a->name, a->bytes, v->value ? v->size : 0);
        return write_words(dev, k, a->offset, a->words, v->value, v->size);
    case OHLS_ARG_LOCAL:
        if (v->size == 0 || v->size > a->max_bytes)
            return ohls_fail(dev,
                             "kernel %s: __local argument %s asks for %zu bytes; the core "
                             "holds 1 to %" PRIu64,
                             k->name, a->name, v->size, a->max_bytes);
        for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)((uint64_t)v->size >> (8 * i));
        return write_words(dev, k, a->offset, a->words, bytes, sizeof bytes);
    }
    return ohls_fail(dev, "kernel %s: argument %s has an unknown kind", k->name, a->name);
}

int ohls_run(ohls_dev *dev, const ohls_kernel *k, const ohls_arg *args, const uint32_t global[3],
             const uint32_t local[3]) {
    if (check_sizes(dev, k, global, local) != 0) return -1;
    if (ohls_be_check(dev, k) != 0) return -1;
    for (int d = 0; d < 3; d++) {
        if (ohls_be_write_reg(dev, k, OHLS_REG_GLOBAL_SIZE0 + 4u * (uint32_t)d, global[d]) != 0 ||
            ohls_be_write_reg(dev, k, OHLS_REG_LOCAL_SIZE0 + 4u * (uint32_t)d, local[d]) != 0)
            return -1;
    }
    for (unsigned i = 0; i < k->arg_count; i++)
        if (write_arg(dev, k, &k->args[i], &args[i]) != 0) return -1;
    uint32_t status = 0;
    if (ohls_be_start_wait(dev, k, &status) != 0) return -1;
    uint32_t code = OHLS_STATUS_ERROR(status);
    if (code != 0)
        return ohls_fail(dev, "kernel %s finished with error code %#" PRIx32 ": %s", k->name, code,
                         ohls_error_code_text(code));
    return 0;
}
