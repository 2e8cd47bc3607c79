/* ohls_de10.c: the DE10-Nano backend (HPS Linux). Control registers through the
 * lightweight HPS-to-FPGA bridge, mapped from /dev/mem; buffers in SDRAM that Linux does
 * not use (a reserved region, or a u-dma-buf), mapped uncached so that what the ARM
 * writes is in SDRAM when the core reads it through the FPGA-to-SDRAM port, which does
 * not snoop the ARM caches (and the other way round). DONE is polled. */
#define _FILE_OFFSET_BITS 64 /* the bridge's physical address does not fit a 32-bit off_t */
#define _POSIX_C_SOURCE 200809L

#include "ohls_backend.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef OHLS_LW_BRIDGE_BASE
#define OHLS_LW_BRIDGE_BASE 0xFF200000u
#endif
#ifndef OHLS_LW_BRIDGE_SPAN
#define OHLS_LW_BRIDGE_SPAN 0x200000u
#endif
/* The default buffer memory: the top 64 MiB of the 1 GiB SDRAM, kept from Linux by
 * `mem=960M` on the kernel command line (README.md). OHLS_DMA_BASE / OHLS_DMA_SIZE in
 * the environment override it. */
#ifndef OHLS_DMA_BASE
#define OHLS_DMA_BASE 0x3C000000u
#endif
#ifndef OHLS_DMA_SIZE
#define OHLS_DMA_SIZE 0x04000000u
#endif

struct ohls_be {
    int mem_fd;
    int dma_fd;
    volatile uint32_t *lw;
    unsigned char *dma;
    size_t dma_len;
};

const char *ohls_backend_name(void) {
    return "de10";
}

/* Makes the ARM's writes to the buffers visible to the FPGA-to-SDRAM port before the
 * START write (and orders reads after DONE): a full DSB, not only a DMB, because the port
 * is another master outside the ARM's shareability domain. */
static void barrier(void) {
#if defined(__arm__) || defined(__aarch64__)
    __asm__ volatile("dsb sy" ::: "memory");
#else
    __sync_synchronize();
#endif
}

/* A read through a bridge held in reset (FPGA not configured, bridge not enabled) ends in
 * SIGBUS; while checking a core it becomes an error message instead. */
static sigjmp_buf bus_jump;

static void on_bus_error(int sig) {
    siglongjmp(bus_jump, sig);
}

static int env_u64(ohls_dev *dev, const char *name, uint64_t dflt, uint64_t *out) {
    const char *v = getenv(name);
    *out = dflt;
    if (!v || !*v) return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || !end || *end) return ohls_fail(dev, "%s=%s is not a number", name, v);
    *out = x;
    return 0;
}

static int sysfs_u64(ohls_dev *dev, const char *path, uint64_t *out) {
    FILE *f = fopen(path, "r");
    if (!f) return ohls_fail(dev, "cannot read %s: %s (is the u-dma-buf module loaded?)", path, strerror(errno));
    unsigned long long x = 0;
    int ok = fscanf(f, "%lli", &x) == 1;
    fclose(f);
    if (!ok) return ohls_fail(dev, "%s does not hold a number", path);
    *out = x;
    return 0;
}

int ohls_be_open(ohls_dev *dev, const char *where) {
    struct ohls_be *be = calloc(1, sizeof *be);
    if (!be) return ohls_fail(dev, "out of memory");
    be->mem_fd = be->dma_fd = -1;
    dev->be = be;
    be->mem_fd = open("/dev/mem", O_RDWR | O_SYNC);
    if (be->mem_fd < 0)
        return ohls_fail(dev, "cannot open /dev/mem: %s (run as root)", strerror(errno));
    void *lw = mmap(NULL, OHLS_LW_BRIDGE_SPAN, PROT_READ | PROT_WRITE, MAP_SHARED, be->mem_fd,
                    (off_t)OHLS_LW_BRIDGE_BASE);
    if (lw == MAP_FAILED)
        return ohls_fail(dev, "cannot map the lightweight bridge at %#x: %s", OHLS_LW_BRIDGE_BASE,
                         strerror(errno));
    be->lw = lw;
    uint64_t base = 0, size = 0;
    if (where && *where) {
        /* A u-dma-buf: its physical address and size from sysfs, mapped through its own
         * device; O_SYNC makes the mapping uncached. */
        char path[256];
        snprintf(path, sizeof path, "/sys/class/u-dma-buf/%s/phys_addr", where);
        if (sysfs_u64(dev, path, &base) != 0) return -1;
        snprintf(path, sizeof path, "/sys/class/u-dma-buf/%s/size", where);
        if (sysfs_u64(dev, path, &size) != 0) return -1;
        snprintf(path, sizeof path, "/dev/%s", where);
        be->dma_fd = open(path, O_RDWR | O_SYNC);
        if (be->dma_fd < 0) return ohls_fail(dev, "cannot open %s: %s", path, strerror(errno));
    } else {
        if (env_u64(dev, "OHLS_DMA_BASE", OHLS_DMA_BASE, &base) != 0 ||
            env_u64(dev, "OHLS_DMA_SIZE", OHLS_DMA_SIZE, &size) != 0)
            return -1;
    }
    if (size == 0 || size > SIZE_MAX)
        return ohls_fail(dev, "buffer memory of %" PRIu64 " bytes cannot be mapped", size);
    be->dma_len = (size_t)size;
    void *dma = mmap(NULL, be->dma_len, PROT_READ | PROT_WRITE, MAP_SHARED,
                     be->dma_fd >= 0 ? be->dma_fd : be->mem_fd,
                     be->dma_fd >= 0 ? 0 : (off_t)base);
    if (dma == MAP_FAILED)
        return ohls_fail(dev,
                         "cannot map the buffer memory at %#" PRIx64 " (%" PRIu64
                         " bytes): %s (is it reserved from Linux? see README.md)",
                         base, size, strerror(errno));
    be->dma = dma;
    dev->window_base = base;
    dev->window_size = size;
    dev->gap_factor = 0;
    return 0;
}

void ohls_be_close(ohls_dev *dev) {
    struct ohls_be *be = dev->be;
    if (!be) return;
    if (be->dma) munmap(be->dma, be->dma_len);
    if (be->lw) munmap((void *)be->lw, OHLS_LW_BRIDGE_SPAN);
    if (be->dma_fd >= 0) close(be->dma_fd);
    if (be->mem_fd >= 0) close(be->mem_fd);
    free(be);
    dev->be = NULL;
}

int ohls_be_alloc(ohls_dev *dev, ohls_buf *buf) {
    buf->host = dev->be->dma + (buf->addr - dev->window_base);
    return 0;
}

void ohls_be_free(ohls_dev *dev, ohls_buf *buf) {
    (void)dev;
    buf->host = NULL;
}

/* Uncached (device) memory takes no unaligned accesses, which memcpy may make: copy
 * whole aligned words, merging the partial ones at the ends. */
static void copy_words_in(unsigned char *dst, const unsigned char *src, size_t n) {
    while (n > 0) {
        uintptr_t at = (uintptr_t)dst;
        size_t skew = at & 3u;
        volatile uint32_t *w = (volatile uint32_t *)(void *)(at - skew);
        size_t take = 4 - skew < n ? 4 - skew : n;
        uint32_t v = (skew == 0 && take == 4) ? 0 : *w;
        for (size_t i = 0; i < take; i++) {
            uint32_t shift = (uint32_t)(8 * (skew + i));
            v = (v & ~(0xFFu << shift)) | ((uint32_t)src[i] << shift);
        }
        *w = v;
        dst += take;
        src += take;
        n -= take;
    }
}

static void copy_words_out(unsigned char *dst, const unsigned char *src, size_t n) {
    while (n > 0) {
        uintptr_t at = (uintptr_t)src;
        size_t skew = at & 3u;
        uint32_t v = *(const volatile uint32_t *)(const void *)(at - skew);
        size_t take = 4 - skew < n ? 4 - skew : n;
        for (size_t i = 0; i < take; i++) dst[i] = (unsigned char)(v >> (8 * (skew + i)));
        dst += take;
        src += take;
        n -= take;
    }
}

int ohls_be_copy_in(ohls_dev *dev, ohls_buf *buf, size_t offset, const void *src, size_t n) {
    (void)dev;
    copy_words_in(buf->host + offset, src, n);
    barrier();
    return 0;
}

int ohls_be_copy_out(ohls_dev *dev, const ohls_buf *buf, size_t offset, void *dst, size_t n) {
    (void)dev;
    barrier();
    copy_words_out(dst, buf->host + offset, n);
    return 0;
}

static volatile uint32_t *reg(ohls_dev *dev, const ohls_kernel *k, uint32_t r) {
    return dev->be->lw + (k->csr_offset + r) / 4;
}

int ohls_be_check(ohls_dev *dev, const ohls_kernel *k) {
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = on_bus_error;
    sigemptyset(&act.sa_mask);
    sigaction(SIGBUS, &act, &old);
    volatile uint32_t magic = 0;
    int faulted = sigsetjmp(bus_jump, 1);
    if (!faulted) magic = *reg(dev, k, OHLS_REG_MAGIC);
    sigaction(SIGBUS, &old, NULL);
    if (faulted)
        return ohls_fail(dev,
                         "reading the core at %#x failed (bus error): the FPGA is not configured "
                         "or the lightweight bridge is not enabled (README.md, step 3)",
                         OHLS_LW_BRIDGE_BASE + k->csr_offset);
    if (magic != OHLS_MAGIC)
        return ohls_fail(dev,
                         "no ocl-hls core at %#x (MAGIC reads %#" PRIx32 ", expected %#x): is the "
                         "bitstream of this build loaded and the lightweight bridge enabled?",
                         OHLS_LW_BRIDGE_BASE + k->csr_offset, magic, OHLS_MAGIC);
    uint32_t nargs = *reg(dev, k, OHLS_REG_NARGS);
    if (nargs != k->nargs)
        return ohls_fail(dev,
                         "the core at %#x has %" PRIu32 " argument registers, kernel %s has %" PRIu32
                         ": the bitstream is from another build",
                         OHLS_LW_BRIDGE_BASE + k->csr_offset, nargs, k->name, k->nargs);
    if (*reg(dev, k, OHLS_REG_STATUS) & OHLS_STATUS_BUSY)
        return ohls_fail(dev, "kernel %s is still running (STATUS.BUSY) from an earlier launch",
                         k->name);
    return 0;
}

int ohls_be_write_reg(ohls_dev *dev, const ohls_kernel *k, uint32_t r, uint32_t value) {
    *reg(dev, k, r) = value;
    return 0;
}

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

int ohls_be_start_wait(ohls_dev *dev, const ohls_kernel *k, uint32_t *status) {
    *reg(dev, k, OHLS_REG_IRQ_STATUS) = 3; /* clear earlier events */
    barrier();                             /* buffers and arguments before START */
    *reg(dev, k, OHLS_REG_CONTROL) = 1;
    uint64_t t0 = now_ms();
    struct timespec nap = {0, 20000};
    for (;;) {
        uint32_t s = *reg(dev, k, OHLS_REG_STATUS);
        if (s & OHLS_STATUS_DONE) {
            barrier();
            *status = s;
            return 0;
        }
        if (now_ms() - t0 > dev->timeout_ms)
            return ohls_fail(dev,
                             "timeout: kernel %s did not signal DONE within %u ms (STATUS %#" PRIx32
                             "%s); a wrong launch or a hung core: reload the bitstream before the "
                             "next launch",
                             k->name, dev->timeout_ms, s,
                             (s & OHLS_STATUS_BUSY) ? ", BUSY" : "");
        nanosleep(&nap, NULL);
    }
}
