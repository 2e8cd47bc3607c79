/* ohls_example.c: the command line of the example host programs (see ohls_example.h). */
#include "ohls_example.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cli_fail(ohls_cli *cli, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int cli_fail(ohls_cli *cli, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", cli->prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    cli->reported = 1;
    return -1;
}

static void usage(const char *prog, const ohls_kernel *k) {
    fprintf(stderr,
            "usage: %s [--device WHERE] [--timeout-ms MS] --global G0[,G1[,G2]]\n"
            "       [--local L0[,L1[,L2]]] [--out DIR] NAME=VALUE...\n"
            "Runs kernel %s once and writes every buffer to DIR/NAME.bin (DIR: .).\n"
            "WHERE: the Verilator model (simulation build; default $OHLS_SIM_MODEL), or a\n"
            "u-dma-buf name such as udmabuf0 (board build; default: the reserved region).\n"
            "Arguments:\n",
            prog, k->name);
    for (unsigned i = 0; i < k->arg_count; i++) {
        const ohls_arg_desc *a = &k->args[i];
        switch (a->kind) {
        case OHLS_ARG_BUFFER:
            fprintf(stderr, "  %s=@FILE | %s=zero:BYTES   buffer\n", a->name, a->name);
            break;
        case OHLS_ARG_SCALAR:
            fprintf(stderr, "  %s=NUMBER[,NUMBER...] | %s=@FILE   %u-byte value\n", a->name,
                    a->name, (unsigned)a->bytes);
            break;
        case OHLS_ARG_LOCAL:
            fprintf(stderr, "  %s=BYTES   __local memory (at most %llu)\n", a->name,
                    (unsigned long long)a->max_bytes);
            break;
        }
    }
}

static int parse_u32(const char *s, uint32_t *out) {
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || v > 0xFFFFFFFFull) return -1;
    *out = (uint32_t)v;
    return 0;
}

static int parse_dims(const char *s, uint32_t dims[3]) {
    char buf[128];
    if (strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    dims[0] = dims[1] = dims[2] = 1;
    int d = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (d == 3 || parse_u32(tok, &dims[d]) != 0) return -1;
        d++;
    }
    return d == 0 ? -1 : 0;
}

int ohls_cli_parse(ohls_cli *cli, int argc, char **argv, const ohls_kernel *k) {
    memset(cli, 0, sizeof *cli);
    cli->prog = argc > 0 ? argv[0] : k->name;
    cli->timeout_ms = OHLS_DEFAULT_TIMEOUT_MS;
    cli->out_dir = ".";
    int have_global = 0, have_local = 0;
    if (k->arg_count > OHLS_CLI_MAX_ARGS) return cli_fail(cli, "kernel %s has too many arguments", k->name);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(cli->prog, k);
            cli->reported = 1;
            return -1;
        } else if (!strcmp(a, "--device") && next) {
            cli->device = next;
            i++;
        } else if (!strcmp(a, "--timeout-ms") && next) {
            uint32_t t = 0;
            ok = parse_u32(next, &t) == 0;
            cli->timeout_ms = t;
            i++;
        } else if (!strcmp(a, "--global") && next) {
            ok = parse_dims(next, cli->global) == 0;
            have_global = 1;
            i++;
        } else if (!strcmp(a, "--local") && next) {
            ok = parse_dims(next, cli->local) == 0;
            have_local = 1;
            i++;
        } else if (!strcmp(a, "--out") && next) {
            cli->out_dir = next;
            i++;
        } else {
            const char *eq = strchr(a, '=');
            unsigned j = 0;
            for (; eq && j < k->arg_count; j++)
                if (strlen(k->args[j].name) == (size_t)(eq - a) &&
                    !strncmp(k->args[j].name, a, (size_t)(eq - a)))
                    break;
            if (!eq || j == k->arg_count) {
                usage(cli->prog, k);
                return cli_fail(cli, "unknown argument `%s`", a);
            }
            cli->values[j] = eq + 1;
        }
        if (!ok) {
            usage(cli->prog, k);
            return cli_fail(cli, "bad value for %s: `%s`", a, next ? next : "");
        }
    }
    if (!have_global) {
        usage(cli->prog, k);
        return cli_fail(cli, "--global is missing");
    }
    if (!have_local) {
        if (!k->reqd) return cli_fail(cli, "--local is missing (kernel %s fixes no work-group size)", k->name);
        memcpy(cli->local, k->max_local, sizeof cli->local);
    }
    for (unsigned j = 0; j < k->arg_count; j++)
        if (!cli->values[j]) return cli_fail(cli, "argument %s=... is missing", k->args[j].name);
    return 0;
}

/* The whole file `path`, malloc'd. */
static unsigned char *slurp(ohls_cli *cli, const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_fail(cli, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *data = malloc(cap);
    while (data) {
        n += fread(data + n, 1, cap - n, f);
        if (n < cap) break;
        unsigned char *more = realloc(data, cap * 2);
        if (!more) {
            free(data);
            data = NULL;
            break;
        }
        data = more;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!data || bad) {
        free(data);
        cli_fail(cli, "cannot read %s", path);
        return NULL;
    }
    *len = n;
    return data;
}

int ohls_cli_buffer(ohls_cli *cli, ohls_dev *dev, const ohls_kernel *k, unsigned i, ohls_buf **out) {
    const char *v = cli->values[i];
    const char *name = k->args[i].name;
    *out = NULL;
    if (!strncmp(v, "zero:", 5)) {
        uint32_t n = 0;
        if (parse_u32(v + 5, &n) != 0 || n == 0) return cli_fail(cli, "%s=%s: not a byte count", name, v);
        if (ohls_buf_alloc(dev, n, out) != 0) return cli_fail(cli, "%s: %s", name, ohls_last_error(dev));
        unsigned char *zeros = calloc(1, n);
        int rc = zeros ? ohls_buf_write(dev, *out, 0, zeros, n) : -1;
        free(zeros);
        return rc ? cli_fail(cli, "%s: cannot clear the buffer", name) : 0;
    }
    if (v[0] != '@') return cli_fail(cli, "%s=%s: a buffer is @FILE or zero:BYTES", name, v);
    size_t n = 0;
    unsigned char *data = slurp(cli, v + 1, &n);
    if (!data) return -1;
    int rc = 0;
    if (n == 0)
        rc = cli_fail(cli, "%s: %s is empty", name, v + 1);
    else if (ohls_buf_alloc(dev, n, out) != 0 || ohls_buf_write(dev, *out, 0, data, n) != 0)
        rc = cli_fail(cli, "%s: %s", name, ohls_last_error(dev));
    free(data);
    return rc;
}

static int parse_lane(const char *tok, const ohls_arg_desc *a, unsigned char *dst) {
    char *end = NULL;
    errno = 0;
    if (a->elem == 'f') {
        double d = strtod(tok, &end);
        if (errno || end == tok || *end) return -1;
        if (a->elem_bytes == 4) {
            float f = (float)d;
            memcpy(dst, &f, 4);
        } else if (a->elem_bytes == 8) {
            memcpy(dst, &d, 8);
        } else {
            return -1;
        }
        return 0;
    }
    uint64_t u;
    if (tok[0] == '-') {
        long long s = strtoll(tok, &end, 0);
        u = (uint64_t)s;
    } else {
        u = strtoull(tok, &end, 0);
    }
    if (errno || end == tok || *end) return -1;
    for (uint32_t b = 0; b < a->elem_bytes; b++) dst[b] = (unsigned char)(u >> (8 * b));
    return 0;
}

int ohls_cli_scalar(ohls_cli *cli, const ohls_kernel *k, unsigned i, void *dst) {
    const ohls_arg_desc *a = &k->args[i];
    const char *v = cli->values[i];
    memset(dst, 0, a->bytes);
    if (v[0] == '@') {
        size_t n = 0;
        unsigned char *data = slurp(cli, v + 1, &n);
        if (!data) return -1;
        int rc = 0;
        if (n != a->bytes)
            rc = cli_fail(cli, "%s: %s holds %zu bytes, the argument takes %u", a->name, v + 1, n,
                          (unsigned)a->bytes);
        else
            memcpy(dst, data, n);
        free(data);
        return rc;
    }
    if (a->elem != 'i' && a->elem != 'f')
        return cli_fail(cli, "%s: give this argument's bytes as %s=@FILE", a->name, a->name);
    char buf[1024];
    if (strlen(v) >= sizeof buf) return cli_fail(cli, "%s: value too long", a->name);
    strcpy(buf, v);
    uint32_t lane = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), lane++) {
        if (lane == a->lanes || parse_lane(tok, a, (unsigned char *)dst + lane * a->elem_bytes) != 0)
            return cli_fail(cli, "%s=%s: expected %u comma-separated number(s)", a->name, v,
                            (unsigned)a->lanes);
    }
    if (lane == 0) return cli_fail(cli, "%s: no value", a->name);
    return 0;
}

int ohls_cli_local(ohls_cli *cli, const ohls_kernel *k, unsigned i, size_t *bytes) {
    uint32_t n = 0;
    if (parse_u32(cli->values[i], &n) != 0)
        return cli_fail(cli, "%s=%s: not a byte count", k->args[i].name, cli->values[i]);
    *bytes = n;
    return 0;
}

int ohls_cli_save(ohls_cli *cli, ohls_dev *dev, const ohls_kernel *k, unsigned i, const ohls_buf *buf) {
    size_t n = ohls_buf_size(buf);
    unsigned char *data = malloc(n);
    if (!data) return cli_fail(cli, "out of memory");
    int rc = 0;
    if (ohls_buf_read(dev, buf, 0, data, n) != 0) {
        rc = cli_fail(cli, "%s: %s", k->args[i].name, ohls_last_error(dev));
    } else {
        char path[4096];
        int len = snprintf(path, sizeof path, "%s/%s.bin", cli->out_dir, k->args[i].name);
        FILE *f = len > 0 && (size_t)len < sizeof path ? fopen(path, "wb") : NULL;
        if (!f || fwrite(data, 1, n, f) != n) rc = cli_fail(cli, "cannot write %s", path);
        if (f && fclose(f) != 0 && rc == 0) rc = cli_fail(cli, "cannot write %s", path);
    }
    free(data);
    return rc;
}

void ohls_cli_report(ohls_cli *cli, const ohls_dev *dev) {
    if (!cli->reported) fprintf(stderr, "%s: error: %s\n", cli->prog, ohls_last_error(dev));
    cli->reported = 1;
}
