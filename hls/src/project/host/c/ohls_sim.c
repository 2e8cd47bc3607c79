/* ohls_sim.c: the simulation backend. Runs the Verilator model of the core that
 * ocl-hls's harness builds (sim/README.md): buffers live in host memory at the
 * addresses the allocator gives them, register writes are collected, and START runs the
 * model once over a run directory (config.txt, in_N.bin in; result.txt, out_N.bin out),
 * with the timeout turned into the model's cycle limit. So the runtime above it, the
 * generated header and the host program are the ones that run on the board. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mkdtemp */

#include "ohls_backend.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The harness places its own buffers from here (sim/src/layout.rs); so do we. */
#define SIM_WINDOW_BASE 0x10000000u
#define SIM_WINDOW_SIZE 0xE0000000u
/* Kernel clock assumed when turning the timeout into cycles (OHLS_SIM_CYCLES_PER_MS). */
#define SIM_CYCLES_PER_MS 100000u
#define MAX_CSR 256

struct ohls_be {
    char *model;
    uint32_t csr_reg[MAX_CSR];
    uint32_t csr_val[MAX_CSR];
    unsigned ncsr;
};

const char *ohls_backend_name(void) {
    return "sim";
}

int ohls_be_open(ohls_dev *dev, const char *where) {
    struct ohls_be *be = calloc(1, sizeof *be);
    if (!be) return ohls_fail(dev, "out of memory");
    dev->be = be;
    if (!where || !*where) where = getenv("OHLS_SIM_MODEL");
    if (!where || !*where)
        return ohls_fail(dev, "no simulation model: give its path (--device) or set OHLS_SIM_MODEL");
    if (access(where, X_OK) != 0)
        return ohls_fail(dev, "the simulation model %s cannot be run: %s", where, strerror(errno));
    be->model = strdup(where);
    if (!be->model) return ohls_fail(dev, "out of memory");
    dev->window_base = SIM_WINDOW_BASE;
    dev->window_size = SIM_WINDOW_SIZE;
    dev->gap_factor = 1;
    return 0;
}

void ohls_be_close(ohls_dev *dev) {
    if (!dev->be) return;
    free(dev->be->model);
    free(dev->be);
    dev->be = NULL;
}

int ohls_be_alloc(ohls_dev *dev, ohls_buf *buf) {
    buf->host = calloc(1, buf->size);
    if (!buf->host) return ohls_fail(dev, "out of memory for a buffer of %zu bytes", buf->size);
    return 0;
}

void ohls_be_free(ohls_dev *dev, ohls_buf *buf) {
    (void)dev;
    free(buf->host);
    buf->host = NULL;
}

int ohls_be_copy_in(ohls_dev *dev, ohls_buf *buf, size_t offset, const void *src, size_t n) {
    (void)dev;
    memcpy(buf->host + offset, src, n);
    return 0;
}

int ohls_be_copy_out(ohls_dev *dev, const ohls_buf *buf, size_t offset, void *dst, size_t n) {
    (void)dev;
    memcpy(dst, buf->host + offset, n);
    return 0;
}

int ohls_be_check(ohls_dev *dev, const ohls_kernel *k) {
    (void)k;
    dev->be->ncsr = 0;
    return 0;
}

int ohls_be_write_reg(ohls_dev *dev, const ohls_kernel *k, uint32_t reg, uint32_t value) {
    struct ohls_be *be = dev->be;
    if (be->ncsr == MAX_CSR) return ohls_fail(dev, "kernel %s: too many register writes", k->name);
    be->csr_reg[be->ncsr] = reg;
    be->csr_val[be->ncsr] = value;
    be->ncsr++;
    return 0;
}

/* `dir/name` into `out` (PATH_LEN bytes); an error when it does not fit. */
#define PATH_LEN 4096
static int join(ohls_dev *dev, char *out, const char *dir, const char *name) {
    int n = snprintf(out, PATH_LEN, "%s/%s", dir, name);
    if (n < 0 || n >= PATH_LEN) return ohls_fail(dev, "the path %s/%s is too long", dir, name);
    return 0;
}

static int write_file(ohls_dev *dev, const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return ohls_fail(dev, "cannot write %s: %s", path, strerror(errno));
    size_t put = n ? fwrite(data, 1, n, f) : 0;
    int bad = fclose(f) != 0 || put != n;
    return bad ? ohls_fail(dev, "cannot write %s", path) : 0;
}

static int read_exact(ohls_dev *dev, const char *path, void *data, size_t n) {
    FILE *f = fopen(path, "rb");
    if (!f) return ohls_fail(dev, "cannot read %s: %s", path, strerror(errno));
    size_t got = fread(data, 1, n, f);
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (got != n || extra) return ohls_fail(dev, "%s does not hold %zu bytes", path, n);
    return 0;
}

static void remove_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[PATH_LEN];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (join(NULL, path, dir, e->d_name) == 0) unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static int write_inputs(ohls_dev *dev, const char *dir, uint64_t cycle_limit) {
    char path[PATH_LEN];
    if (join(dev, path, dir, "config.txt") != 0) return -1;
    FILE *c = fopen(path, "w");
    if (!c) return ohls_fail(dev, "cannot write %s: %s", path, strerror(errno));
    /* The harness's default memory (MemConfig::default in sim/src/launch.rs). */
    fprintf(c, "cycle_limit %" PRIu64 "\nread_latency 40\nwrite_latency 20\nbw_milli 1000\n"
               "max_outstanding 8\nmax_burst 16\n", cycle_limit);
    for (ohls_buf *b = dev->bufs; b; b = b->next) {
        fprintf(c, "region %u %" PRIu64 " %zu\n", b->index, b->addr, b->size);
        char name[32], in[PATH_LEN];
        snprintf(name, sizeof name, "in_%u.bin", b->index);
        if (join(dev, in, dir, name) != 0 || write_file(dev, in, b->host, b->size) != 0) {
            fclose(c);
            return -1;
        }
    }
    for (unsigned i = 0; i < dev->be->ncsr; i++)
        fprintf(c, "csr %" PRIu32 " %" PRIu32 "\n", dev->be->csr_reg[i], dev->be->csr_val[i]);
    if (fclose(c) != 0) return ohls_fail(dev, "cannot write %s", path);
    return 0;
}

static int run_model(ohls_dev *dev, const char *dir) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return ohls_fail(dev, "cannot start %s: %s", dev->be->model, strerror(errno));
    if (pid == 0) {
        char *argv[] = {dev->be->model, (char *)dir, NULL};
        execv(dev->be->model, argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return ohls_fail(dev, "waiting for %s: %s", dev->be->model, strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return ohls_fail(dev, "the simulation model %s failed (status %d)", dev->be->model, st);
    return 0;
}

/* Reads result.txt: DONE and the error code into *status, or the fault as the error. */
static int read_result(ohls_dev *dev, const ohls_kernel *k, const char *dir, uint64_t limit,
                       uint32_t *status) {
    char path[PATH_LEN], line[1024];
    if (join(dev, path, dir, "result.txt") != 0) return -1;
    FILE *f = fopen(path, "r");
    if (!f) return ohls_fail(dev, "cannot read %s: %s", path, strerror(errno));
    int done = 0;
    unsigned code = 0;
    char message[1536] = "";
    while (fgets(line, sizeof line, f)) {
        if (!strcmp(line, "status done\n")) done = 1;
        sscanf(line, "error_code %u", &code);
        if (!strcmp(line, "message\n")) {
            size_t n = fread(message, 1, sizeof message - 1, f);
            message[n] = 0;
            while (n > 0 && message[n - 1] == '\n') message[--n] = 0;
        }
    }
    fclose(f);
    if (!done) {
        if (!strncmp(message, "cycle limit", 11))
            return ohls_fail(dev,
                             "timeout: kernel %s did not signal DONE within %u ms (%" PRIu64
                             " simulated cycles); the model says: %s",
                             k->name, dev->timeout_ms, limit, message);
        return ohls_fail(dev, "kernel %s failed in simulation: %s%s", k->name, message,
                         strstr(message, "outside any buffer")
                             ? " (is a buffer too small for this launch?)"
                             : "");
    }
    *status = OHLS_STATUS_DONE | ((uint32_t)(code & 0xFFu) << 8);
    return 0;
}

int ohls_be_start_wait(ohls_dev *dev, const ohls_kernel *k, uint32_t *status) {
    uint64_t per_ms = SIM_CYCLES_PER_MS;
    const char *v = getenv("OHLS_SIM_CYCLES_PER_MS");
    if (v && *v) per_ms = strtoull(v, NULL, 0);
    uint64_t limit = (uint64_t)dev->timeout_ms * per_ms;
    const char *tmp = getenv("TMPDIR");
    char dir[PATH_LEN];
    if (join(dev, dir, tmp && *tmp ? tmp : "/tmp", "ohls-run-XXXXXX") != 0) return -1;
    if (!mkdtemp(dir)) return ohls_fail(dev, "cannot make a run directory: %s", strerror(errno));
    int rc = write_inputs(dev, dir, limit);
    if (rc == 0) rc = run_model(dev, dir);
    if (rc == 0) rc = read_result(dev, k, dir, limit, status);
    for (ohls_buf *b = dev->bufs; rc == 0 && b; b = b->next) {
        char name[32], out[PATH_LEN];
        snprintf(name, sizeof name, "out_%u.bin", b->index);
        rc = join(dev, out, dir, name);
        if (rc == 0) rc = read_exact(dev, out, b->host, b->size);
    }
    dev->be->ncsr = 0;
    const char *keep = getenv("OHLS_SIM_KEEP");
    if (keep && *keep && strcmp(keep, "0"))
        fprintf(stderr, "ohls: run directory kept: %s\n", dir);
    else
        remove_dir(dir);
    return rc;
}
