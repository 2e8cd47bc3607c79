// dp_top.cpp: C++ testbench of the binary64 units (dp_top.v). Every enabled cycle each
// pipelined unit gets a fresh operation (first every pair of edge values, then random
// bits with a large share aimed at the hard cases: subnormals, overflow, cancellation,
// exact ties); each idle divider gets one too. Expected results come from the host CPU:
// SSE instructions by inline assembly (so NaN operand order is the instruction's), the
// C library's conversions in the four rounding modes, and for out-of-range float to
// integer conversions the x86 rules the interpreter implements. Both latency variants
// of a unit are checked against a queue of issued operations, including the latency.
// Usage: sim [ops-per-op] [seed]. Prints `PASS <op> n=<count>` per operation; on a
// mismatch prints the first 10 (inputs, expected, got in hex) and exits 1.
#include "Vdp_top.h"
#include "verilated.h"

#include <cfenv>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

using u32 = uint32_t;
using u64 = uint64_t;
using i64 = int64_t;

static double d_of(u64 x) {
    double d;
    memcpy(&d, &x, 8);
    return d;
}
static u64 u_of(double d) {
    u64 x;
    memcpy(&x, &d, 8);
    return x;
}
static float f_of(u32 x) {
    float f;
    memcpy(&f, &x, 4);
    return f;
}
static u32 uf_of(float f) {
    u32 x;
    memcpy(&x, &f, 4);
    return x;
}

// ---------------------------------------------------------------- random operands
struct Rng {
    std::mt19937_64 g;
    explicit Rng(u64 seed) : g(seed) {}
    u64 u() { return g(); }
    u32 below(u32 n) { return (u32)(g() % n); }
    bool chance(u32 n) { return below(n) == 0; }
};

static const u64 EDGE_POS[] = {
    0x0000000000000000, 0x0000000000000001, 0x0000000000000002, 0x0000000000000003,
    0x0008000000000000, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x0010000000000001,
    0x001FFFFFFFFFFFFF, 0x0020000000000000, 0x3CA0000000000000, 0x3CA0000000000001,
    0x3CB0000000000000, 0x3FDFFFFFFFFFFFFF, 0x3FE0000000000000, 0x3FE8000000000000,
    0x3FEFFFFFFFFFFFFF, 0x3FF0000000000000, 0x3FF0000000000001, 0x3FF8000000000000,
    0x4000000000000000, 0x4004000000000000, 0x4008000000000000, 0x4330000000000000,
    0x4330000000000001, 0x4340000000000000, 0x4340000000000001, 0x43DFFFFFFFFFFFFF,
    0x43E0000000000000, 0x43EFFFFFFFFFFFFF, 0x43F0000000000000, 0x41DFFFFFFFC00000,
    0x41DFFFFFFFE00000, 0x41E0000000000000, 0x41E0000000100000, 0x41EFFFFFFFE00000,
    0x41F0000000000000, 0x405FC00000000000, 0x4060000000000000, 0x406FE00000000000,
    0x40DFFFC000000000, 0x40E0000000000000, 0x40EFFFE000000000, 0x47EFFFFFE0000000,
    0x47EFFFFFF0000000, 0x47EFFFFFF0000001, 0x47F0000000000000, 0x3810000000000000,
    0x380FFFFFF0000000, 0x36A0000000000000, 0x3690000000000000, 0x3690000000000001,
    0x7FE0000000000000, 0x7FEFFFFFFFFFFFFE, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000,
    0x7FF8000000000000, 0x7FF4000000000000, 0x7FF0000000000001, 0x7FFFFFFFFFFFFFFF,
    0x7FF80000DEADBEEF, 0x7FF00000DEADBEEF};
static std::vector<u64> edges() {
    std::vector<u64> v;
    for (u64 x : EDGE_POS) {
        v.push_back(x);
        v.push_back(x | (1ull << 63));
    }
    return v;
}
static const std::vector<u64> EDGE = edges();

static u64 with_exp(u64 x, int e) {
    if (e < 0) e = 0;
    if (e > 2047) e = 2047;
    return (x & 0x800FFFFFFFFFFFFFull) | ((u64)e << 52);
}
static int exp_of(u64 x) { return (int)((x >> 52) & 0x7ff); }

// Clears a random number of low mantissa bits: results land on exact ties far more often.
static u64 trailing_zeros(Rng& r, u64 x) {
    u32 k = r.below(53);
    return x & ~((1ull << k) - 1ull);
}

static u64 gen_f64(Rng& r) {
    u64 x = r.u();
    switch (r.below(16)) {
    case 0: return EDGE[r.below((u32)EDGE.size())];
    case 1:
    case 2: return r.chance(2) ? (x & 0x800FFFFFFFFFFFFFull) : trailing_zeros(r, x & 0x800FFFFFFFFFFFFFull);
    case 3: return with_exp(x, 2040 + (int)r.below(7));           // near overflow
    case 4: return with_exp(x, 1 + (int)r.below(3));              // near underflow
    case 5: return with_exp(x, 900 + (int)r.below(250));          // ordinary
    case 6:
    case 7: return trailing_zeros(r, x);
    case 8: return trailing_zeros(r, with_exp(x, 1000 + (int)r.below(50)));
    default: return x;
    }
}

// An operand near `a`: close exponent (cancellation, ties), random sign and mantissa.
static u64 gen_near(Rng& r, u64 a) {
    u64 x = trailing_zeros(r, r.u());
    int e = exp_of(a) + (int)r.below(120) - 60;
    if (r.chance(2)) e = exp_of(a) + (int)r.below(5) - 2;
    if (r.chance(4)) return (a ^ ((u64)r.below(2) << 63)) + r.below(5) - 2; // a few ulps away
    return with_exp(x, e);
}

// ---------------------------------------------------------------- references
static const int FE_MODE[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
template <class F> static auto in_mode(int rm, F f) {
    fesetround(FE_MODE[rm & 3]);
    auto v = f();
    fesetround(FE_TONEAREST);
    return v;
}

static u64 sse_add(u64 a, u64 b, bool sub) {
    double x = d_of(a), y = d_of(b);
    if (sub)
        asm volatile("subsd %1, %0" : "+x"(x) : "x"(y));
    else
        asm volatile("addsd %1, %0" : "+x"(x) : "x"(y));
    return u_of(x);
}
static u64 sse_mul(u64 a, u64 b) {
    double x = d_of(a), y = d_of(b);
    asm volatile("mulsd %1, %0" : "+x"(x) : "x"(y));
    return u_of(x);
}
static u64 sse_div(u64 a, u64 b) {
    double x = d_of(a), y = d_of(b);
    asm volatile("divsd %1, %0" : "+x"(x) : "x"(y));
    return u_of(x);
}

// The interpreter's float -> integer rules (hls/src/interp/convert.rs `float_to_int`).
static u64 to_int_model(u64 a, int rm, bool sgn, bool sat, int size) {
    int bits = 8 << size;
    u64 mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
    double r = in_mode(rm, [&] {
        volatile double v = d_of(a);
        return nearbyint(v);
    });
    if (sat) {
        if (std::isnan(r)) return 0;
        __int128 lo = sgn ? -((__int128)1 << (bits - 1)) : 0;
        __int128 hi = sgn ? ((__int128)1 << (bits - 1)) - 1 : ((__int128)1 << bits) - 1;
        __int128 v;
        if (r <= (double)lo) v = lo;
        else if (r >= (double)hi) v = hi;
        else v = (__int128)r;
        return (u64)v & mask;
    }
    u64 v;
    if (bits == 64 && sgn) {
        double t = 9223372036854775808.0;
        v = (std::isnan(r) || r < -t || r >= t) ? (1ull << 63) : (u64)(i64)r;
    } else if (bits >= 32 && !sgn) {
        double lim = bits == 64 ? 18446744073709551616.0 : 4294967296.0;
        v = (std::isnan(r) || r < 0.0 || r >= lim) ? ~0ull : (u64)r;
    } else {
        v = (std::isnan(r) || !(r >= -2147483648.0 && r < 2147483648.0))
                ? 0x80000000ull
                : (u64)(u32)(int32_t)r;
    }
    return v & mask;
}

static u64 from_int_ref(u64 x, bool sgn, int rm) {
    return in_mode(rm, [&] {
        volatile u64 vx = x;
        double d = sgn ? (double)(i64)vx : (double)(u64)vx;
        return u_of(d);
    });
}

// By instruction: GCC moves a plain (float) conversion across fesetround even with
// -frounding-math (GCC bug 34678).
static u32 to_fp32_ref(u64 a, int rm) {
    return in_mode(rm, [&] {
        double x = d_of(a);
        float f;
        asm volatile("cvtsd2ss %1, %0" : "=x"(f) : "x"(x));
        return uf_of(f);
    });
}

// binary64 -> binary16 in rounding mode rm, by integer arithmetic on the exact value
// (the host has no binary16 conversion that honours the rounding mode); NaN as the
// interpreter gives it (POCL's half stores): the sign and every payload bit.
static u64 to_half_model(u64 x, u32 rm) {
    u32 s = (u32)(x >> 63), e = (u32)(x >> 52) & 0x7ff;
    u64 m = x & ((1ull << 52) - 1);
    u32 sh = s << 15;
    if (e == 2047) return m ? (sh | 0x7fff) : (sh | 0x7c00);
    if (e == 0 && m == 0) return sh;
    u64 M = e ? (m | (1ull << 52)) : m;
    int E = (e ? (int)e : 1) - 1075;         // value = M * 2^E
    int L = 63 - __builtin_clzll(M) + E;     // exponent of the leading one
    int q = L - 10 > -24 ? L - 10 : -24;     // exponent of the result's last place
    int k = q - E;                           // bits that do not fit
    u64 R, rem = 0, half = 1;
    if (k <= 0) {
        R = M << -k;
    } else if (k > 60) {
        R = 0;
        rem = M;                             // M < 2^53: below half an ulp
        half = 1ull << 60;
    } else {
        R = M >> k;
        rem = M & ((1ull << k) - 1);
        half = 1ull << (k - 1);
    }
    bool inexact = rem != 0, up = false;
    switch (rm) {
    case 0: up = rem > half || (rem == half && (R & 1)); break;
    case 2: up = inexact && !s; break;
    case 3: up = inexact && s; break;
    default: break;
    }
    R += up;
    u64 bits = ((u64)(q + 24) << 10) + R;    // the hidden bit carries into the exponent
    if (bits >= 0x7c00) {
        bool to_max = rm == 1 || (rm == 2 && s) || (rm == 3 && !s);
        return sh | (to_max ? 0x7bff : 0x7c00);
    }
    return sh | bits;
}

static u64 from_fp32_ref(u32 a) {
    float f = f_of(a);
    double d;
    asm volatile("cvtss2sd %1, %0" : "=x"(d) : "x"(f));
    return u_of(d);
}

// ---------------------------------------------------------------- result checking
struct Pending {
    u64 in[4];
    u64 exp;
    u64 t;
    int op;
    // The bits of the result that matter (narrow integer results: the low bits).
    u64 mask = ~0ull;
};

struct Lane {
    std::string name;
    u32 lat;
    std::deque<Pending> q;
    u64 bad = 0;
    std::vector<std::string>* msgs;
    std::map<int, u64>* counts;
    bool count;

    void fail(const std::string& m) {
        bad++;
        if (msgs->size() < 10) msgs->push_back(name + ": " + m);
    }
    static std::string describe(const Pending& p, u64 got) {
        char buf[200];
        snprintf(buf, sizeof buf,
                 "in %016" PRIx64 " %016" PRIx64 " %" PRIx64 " %" PRIx64 " expected %016" PRIx64
                 " got %016" PRIx64,
                 p.in[0], p.in[1], p.in[2], p.in[3], p.exp, got);
        return buf;
    }
    // Called before an enabled clock edge, when outputs show the oldest operation.
    void sample(bool ov, u64 got, u64 t) {
        if (ov) {
            if (q.empty()) {
                fail("output valid with nothing issued");
                return;
            }
            Pending p = q.front();
            q.pop_front();
            if (t - p.t != lat) {
                char buf[80];
                snprintf(buf, sizeof buf, "latency %" PRIu64 " (expected %u): ", t - p.t, lat);
                fail(buf + describe(p, got));
            } else if (p.exp != (got & p.mask)) {
                fail(describe(p, got));
            } else if (count) {
                (*counts)[p.op]++;
            }
        } else if (!q.empty() && q.front().t + lat <= t) {
            fail("missing output: " + describe(q.front(), 0));
            q.pop_front();
        }
    }
};

enum OpId { ADD, SUB, MUL, DIV, CMP, FROM_INT, TO_INT, TO_FP32, FROM_FP32, TO_HALF, NOPS };
static const char* OP_NAME[NOPS] = {"add",    "sub",    "mul",     "div",      "cmp",
                                    "from_int", "to_int", "to_fp32", "from_fp32", "to_half"};

static const u64 INT_EDGE[] = {0,
                               1,
                               2,
                               3,
                               0x7fffffffffffffffull,
                               0x8000000000000000ull,
                               0x8000000000000001ull,
                               0xffffffffffffffffull,
                               0xfffffffffffffffeull,
                               0x001fffffffffffffull,
                               0x0020000000000000ull,
                               0x0020000000000001ull,
                               0x0020000000000002ull,
                               0x0020000000000003ull,
                               0x0040000000000002ull,
                               0x0040000000000006ull,
                               0xffdfffffffffffffull,
                               0xffe0000000000000ull,
                               0x7ffffffffffffc00ull,
                               0x7ffffffffffffe00ull,
                               0xfffffffffffff800ull,
                               0xfffffffffffffc00ull,
                               0x00000000ffffffffull,
                               0x0000000080000000ull,
                               0xffffffff80000000ull};

int main(int argc, char** argv) {
    u64 N = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1000000;
    u64 seed = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1;
    Verilated::commandArgs(argc, argv);
    Vdp_top* t = new Vdp_top;
    Rng r(seed);
    std::vector<std::string> msgs;
    std::map<int, u64> counts;
    const int NDIV = 32;
    const u64 NE = EDGE.size();

    auto lane = [&](const char* name, u32 lat, bool count) {
        Lane l;
        l.name = name;
        l.lat = lat;
        l.msgs = &msgs;
        l.counts = &counts;
        l.count = count;
        return l;
    };
    Lane add_d = lane("add_d", 6, true), add_z = lane("add_z", 0, false);
    Lane mul_d = lane("mul_d", 4, true), mul_z = lane("mul_z", 0, false);
    Lane cmp_d = lane("cmp_d", 1, true), cmp_z = lane("cmp_z", 0, false);
    Lane fi_d = lane("from_int_d", 2, true), fi_z = lane("from_int_z", 0, false);
    Lane ti_d = lane("to_int_d", 2, true), ti_z = lane("to_int_z", 0, false);
    Lane ts_d = lane("to_fp32_d", 1, true), ts_z = lane("to_fp32_z", 0, false);
    Lane fs_d = lane("from_fp32_d", 1, true), fs_z = lane("from_fp32_z", 0, false);
    Lane th_d = lane("to_half_d", 1, true), th_z = lane("to_half_z", 0, false);
    std::vector<Lane> divs;
    for (int i = 0; i < NDIV; i++) divs.push_back(lane("div", 57, true));

    auto tick = [&] {
        t->clk = 0;
        t->eval();
        t->clk = 1;
        t->eval();
    };
    t->rst = 1;
    t->en = 1;
    tick();
    tick();
    t->rst = 0;

    auto done = [&] {
        for (int op = 0; op < NOPS; op++)
            if (counts[op] < N) return false;
        return true;
    };
    u64 now = 0, issued_pairs = 0, idiv = 0;
    bool draining = false;
    u64 drain = 0;
    while (true) {
        if (!draining && done()) draining = true;
        if (draining && drain++ > 200) break;
        bool en = !r.chance(16);
        t->en = en;
        bool v = en && !draining;
        u64 i = issued_pairs;
        // ---- add / sub
        {
            u64 a, b;
            if (i < NE * NE) {
                a = EDGE[i / NE];
                b = EDGE[i % NE];
            } else {
                a = gen_f64(r);
                b = r.chance(3) ? gen_f64(r) : gen_near(r, a);
            }
            bool s = r.below(2);
            t->add_v = v;
            t->add_a = a;
            t->add_b = b;
            t->add_sub = s;
            if (v) {
                Pending p{{a, b, s, 0}, sse_add(a, b, s), now, s ? SUB : ADD};
                add_d.q.push_back(p);
                add_z.q.push_back(p);
            }
        }
        // ---- mul
        {
            u64 a, b;
            if (i < NE * NE) {
                a = EDGE[i / NE];
                b = EDGE[i % NE];
            } else {
                a = gen_f64(r);
                b = gen_f64(r);
                if (r.chance(3)) {
                    // Aim the product's exponent at overflow or at the subnormal range.
                    static const int T[] = {2046, 2045, 2047, 1, 0, -1, -10, -51, -52, -53, -54};
                    int target = T[r.below(11)] + (int)r.below(3) - 1;
                    b = with_exp(b, target + 1023 - exp_of(a));
                }
            }
            t->mul_v = v;
            t->mul_a = a;
            t->mul_b = b;
            if (v) {
                Pending p{{a, b, 0, 0}, sse_mul(a, b), now, MUL};
                mul_d.q.push_back(p);
                mul_z.q.push_back(p);
            }
        }
        // ---- cmp
        {
            u64 a, b;
            if (i < NE * NE) {
                a = EDGE[i / NE];
                b = EDGE[i % NE];
            } else {
                a = gen_f64(r);
                switch (r.below(4)) {
                case 0: b = a; break;
                case 1: b = gen_near(r, a); break;
                default: b = gen_f64(r);
                }
            }
            volatile double fa = d_of(a), fb = d_of(b);
            u64 e = (u64)(fa == fb) | (u64)(fa < fb) << 1 | (u64)(fa <= fb) << 2 |
                    (u64)std::isunordered(fa, fb) << 3;
            t->cmp_v = v;
            t->cmp_a = a;
            t->cmp_b = b;
            if (v) {
                Pending p{{a, b, 0, 0}, e, now, CMP};
                cmp_d.q.push_back(p);
                cmp_z.q.push_back(p);
            }
        }
        // ---- integer to double
        {
            u64 x;
            const u64 NI = sizeof INT_EDGE / sizeof INT_EDGE[0];
            if (i < NI * 8) {
                x = INT_EDGE[i % NI];
            } else {
                x = r.u() >> r.below(64);
                if (r.chance(2)) x &= ~((1ull << r.below(20)) - 1);   // ties
                if (r.chance(3)) x |= 1ull << (r.below(12) + 52);      // just above 2^53
                if (r.chance(4)) x = 0 - x;
            }
            bool s = r.below(2);
            int rm = (int)r.below(4);
            if (i < NI * 8) {
                s = (i / NI) & 1;
                rm = (int)((i / NI) >> 1);
            }
            t->fi_v = v;
            t->fi_x = x;
            t->fi_sgn = s;
            t->fi_rm = rm;
            if (v) {
                Pending p{{x, s, (u64)rm, 0}, from_int_ref(x, s, rm), now, FROM_INT};
                fi_d.q.push_back(p);
                fi_z.q.push_back(p);
            }
        }
        // ---- double to integer
        {
            u64 a;
            if (i < NE * 4) {
                a = EDGE[i % NE];
            } else if (r.chance(4)) {
                a = gen_f64(r);
            } else {
                // Around the integers: |a| in [2^-2, 2^66), ties common.
                a = trailing_zeros(r, with_exp(r.u(), 1021 + (int)r.below(67)));
            }
            int rm = (int)r.below(4), size = (int)r.below(4);
            bool s = r.below(2), sat = r.below(2);
            t->ti_v = v;
            t->ti_a = a;
            t->ti_rm = rm;
            t->ti_sgn = s;
            t->ti_sat = sat;
            t->ti_size = size;
            if (v) {
                u64 mode = (u64)rm | (u64)s << 4 | (u64)sat << 8 | (u64)size << 12;
                Pending p{{a, mode, 0, 0}, to_int_model(a, rm, s, sat, size), now, TO_INT};
                p.mask = size == 3 ? ~0ull : (1ull << (8 << size)) - 1;
                ti_d.q.push_back(p);
                ti_z.q.push_back(p);
            }
        }
        // ---- double to float
        {
            u64 a;
            if (i < NE * 4) {
                a = EDGE[i % NE];
            } else {
                switch (r.below(6)) {
                case 0: a = gen_f64(r); break;
                case 1: a = trailing_zeros(r, with_exp(r.u(), 866 + (int)r.below(34))); break;
                case 2: a = trailing_zeros(r, with_exp(r.u(), 1148 + (int)r.below(4))); break;
                default: a = trailing_zeros(r, with_exp(r.u(), 900 + (int)r.below(250)));
                }
            }
            int rm = (int)(r.below(4));
            if (i < NE * 4) rm = (int)(i / NE);
            t->ts_v = v;
            t->ts_a = a;
            t->ts_rm = rm;
            if (v) {
                Pending p{{a, (u64)rm, 0, 0}, to_fp32_ref(a, rm), now, TO_FP32};
                ts_d.q.push_back(p);
                ts_z.q.push_back(p);
            }
        }
        // ---- double to half
        {
            u64 a;
            if (i < NE * 4) {
                a = EDGE[i % NE];
            } else {
                switch (r.below(6)) {
                case 0: a = gen_f64(r); break;
                case 1: a = trailing_zeros(r, with_exp(r.u(), 980 + (int)r.below(30))); break;
                case 2: a = trailing_zeros(r, with_exp(r.u(), 1036 + (int)r.below(6))); break;
                default: a = trailing_zeros(r, with_exp(r.u(), 1000 + (int)r.below(50)));
                }
            }
            int rm = (int)(r.below(4));
            if (i < NE * 4) rm = (int)(i / NE);
            t->th_v = v;
            t->th_a = a;
            t->th_rm = rm;
            if (v) {
                Pending p{{a, (u64)rm, 0, 0}, to_half_model(a, (u32)rm), now, TO_HALF};
                th_d.q.push_back(p);
                th_z.q.push_back(p);
            }
        }
        // ---- float to double
        {
            u32 a = (u32)r.u();
            switch (r.below(4)) {
            case 0: a &= 0x807fffffu; break;                       // subnormal
            case 1: a |= 0x7f800000u; break;                       // inf / NaN
            case 2: a &= ~((1u << r.below(24)) - 1); break;
            default: break;
            }
            if (i < 512) a = (u32)(i & 1 ? 0x80000000u : 0) | (u32)(i >> 1);
            t->fs_v = v;
            t->fs_a = a;
            if (v) {
                Pending p{{a, 0, 0, 0}, from_fp32_ref(a), now, FROM_FP32};
                fs_d.q.push_back(p);
                fs_z.q.push_back(p);
            }
        }
        // ---- dividers: each idle one gets an operation
        u32 div_v = 0;
        for (int k = 0; k < NDIV; k++) {
            bool go = v && divs[k].q.empty();
            u64 a = 0, b = 0;
            if (go) {
                u64 j = idiv++;
                if (j < NE * NE) {
                    a = EDGE[j / NE];
                    b = EDGE[j % NE];
                } else {
                    a = gen_f64(r);
                    b = r.chance(4) ? gen_near(r, a) : gen_f64(r);
                    if (r.chance(3)) {
                        static const int T[] = {2046, 2045, 2047, 1, 0, -1, -10, -51, -52, -53, -54};
                        int target = T[r.below(11)] + (int)r.below(3) - 1;
                        b = with_exp(b, exp_of(a) - target + 1023);
                    }
                }
                divs[k].q.push_back(Pending{{a, b, 0, 0}, sse_div(a, b), now, DIV});
            }
            t->div_a[2 * k] = (u32)a;
            t->div_a[2 * k + 1] = (u32)(a >> 32);
            t->div_b[2 * k] = (u32)b;
            t->div_b[2 * k + 1] = (u32)(b >> 32);
            if (go) div_v |= 1u << k;
        }
        t->div_v = div_v;
        t->clk = 0;
        t->eval();
        if (en) {
            add_d.sample(t->add_d_ov, t->add_d_r, now);
            add_z.sample(t->add_z_ov, t->add_z_r, now);
            mul_d.sample(t->mul_d_ov, t->mul_d_r, now);
            mul_z.sample(t->mul_z_ov, t->mul_z_r, now);
            cmp_d.sample(t->cmp_d_ov, t->cmp_d_r, now);
            cmp_z.sample(t->cmp_z_ov, t->cmp_z_r, now);
            fi_d.sample(t->fi_d_ov, t->fi_d_r, now);
            fi_z.sample(t->fi_z_ov, t->fi_z_r, now);
            ti_d.sample(t->ti_d_ov, t->ti_d_r, now);
            ti_z.sample(t->ti_z_ov, t->ti_z_r, now);
            ts_d.sample(t->ts_d_ov, t->ts_d_r, now);
            ts_z.sample(t->ts_z_ov, t->ts_z_r, now);
            fs_d.sample(t->fs_d_ov, t->fs_d_r, now);
            fs_z.sample(t->fs_z_ov, t->fs_z_r, now);
            th_d.sample(t->th_d_ov, t->th_d_r, now);
            th_z.sample(t->th_z_ov, t->th_z_r, now);
            for (int k = 0; k < NDIV; k++) {
                bool ov = (t->div_ov >> k) & 1;
                u64 got = (u64)t->div_r[2 * k] | (u64)t->div_r[2 * k + 1] << 32;
                divs[k].sample(ov, got, now);
            }
            now++;
            if (v) issued_pairs++;
        }
        t->clk = 1;
        t->eval();
    }
    // Drained: nothing may still be waiting.
    std::vector<Lane*> all = {&add_d, &add_z, &mul_d, &mul_z, &cmp_d, &cmp_z, &fi_d,
                              &fi_z,  &ti_d,  &ti_z,  &ts_d,  &ts_z,  &fs_d,  &fs_z, &th_d, &th_z};
    for (auto& d : divs) all.push_back(&d);
    u64 bad = 0;
    for (Lane* l : all) {
        if (!l->q.empty()) l->fail("never came out: " + Lane::describe(l->q.front(), 0));
        bad += l->bad;
    }
    for (auto& m : msgs) printf("FAIL %s\n", m.c_str());
    for (int op = 0; op < NOPS; op++) printf("PASS %s n=%" PRIu64 "\n", OP_NAME[op], counts[op]);
    printf("cycles %" PRIu64 " failures %" PRIu64 "\n", now, bad);
    delete t;
    return bad ? 1 : 0;
}
