// fp_top.cpp: C++ testbench of the float units (fp_top.v). Every cycle each unit gets a
// fresh operation (random bits, a share aimed at the hard cases, and first every pair of
// edge values); the expected result comes from the host CPU (SSE, libm) or, for the half
// conversions, from a software model cross-checked with _Float16. Both latency variants
// of a unit are checked against a queue of issued operations, including the latency.
// Usage: sim [ops-per-unit] [seed]. Prints `PASS <op> n=<count>` per operation; on a
// mismatch prints the first 10 (inputs, expected, got in hex) and exits 1.
#include "Vfp_top.h"
#include "verilated.h"

#include <cfenv>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;

static float f_of(u32 x) {
    float f;
    memcpy(&f, &x, 4);
    return f;
}
static u32 u_of(float f) {
    u32 x;
    memcpy(&x, &f, 4);
    return x;
}
static bool nan32(u32 x) { return (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu); }
static bool nan16(u32 x) { return (x & 0x7c00u) == 0x7c00u && (x & 0x3ffu); }

// ---------------------------------------------------------------- random operands
struct Rng {
    std::mt19937_64 g;
    explicit Rng(u64 seed) : g(seed) {}
    u32 u() { return (u32)g(); }
    u32 below(u32 n) { return (u32)(g() % n); }
    bool chance(u32 n) { return below(n) == 0; }
};

static const u32 EDGE_POS[] = {
    0x00000000, 0x00000001, 0x00000002, 0x00000003, 0x00400000, 0x007fffff, 0x00800000,
    0x00800001, 0x00ffffff, 0x01000000, 0x33800000, 0x33800001, 0x34000000, 0x3effffff,
    0x3f000000, 0x3f7fffff, 0x3f800000, 0x3f800001, 0x3fc00000, 0x40000000, 0x40400000,
    0x4b000000, 0x4b000001, 0x4b800000, 0x4effffff, 0x4f000000, 0x4f800000, 0x7effffff,
    0x7f000000, 0x7f7ffffe, 0x7f7fffff, 0x7f800000, 0x7fc00000, 0x7fa00000, 0x7f800001,
    0x7fffffff};
static std::vector<u32> edges() {
    std::vector<u32> v;
    for (u32 x : EDGE_POS) {
        v.push_back(x);
        v.push_back(x | 0x80000000u);
    }
    return v;
}
static const std::vector<u32> EDGE = edges();

static u32 with_exp(u32 x, int e) {
    if (e < 0) e = 0;
    if (e > 255) e = 255;
    return (x & 0x807fffffu) | ((u32)e << 23);
}
static int exp_of(u32 x) { return (int)((x >> 23) & 0xff); }

// Clears a random number of low mantissa bits: results land on exact ties far more often.
static u32 trailing_zeros(Rng& r, u32 x) {
    u32 k = r.below(24);
    return x & ~((1u << k) - 1u);
}

static u32 gen_f32(Rng& r) {
    u32 x = r.u();
    switch (r.below(16)) {
    case 0: return EDGE[r.below((u32)EDGE.size())];
    case 1:
    case 2: return x & 0x807fffffu;                               // subnormal
    case 3: return with_exp(x, 250 + (int)r.below(5));            // near overflow
    case 4: return with_exp(x, 1 + (int)r.below(3));              // near underflow
    case 5: return with_exp(x, 100 + (int)r.below(55));           // ordinary
    case 6:
    case 7: return trailing_zeros(r, x);
    default: return x;
    }
}

// An operand near `a`: close exponent (cancellation, ties), random sign and mantissa.
static u32 gen_near(Rng& r, u32 a) {
    u32 x = trailing_zeros(r, r.u());
    int e = exp_of(a) + (int)r.below(60) - 30;
    if (r.chance(2)) e = exp_of(a) + (int)r.below(5) - 2;
    if (r.chance(4)) return (a ^ (r.below(2) << 31)) + r.below(5) - 2; // a few ulps away
    return with_exp(x, e);
}

// ---------------------------------------------------------------- result checking
enum Kind { F32, F16, BITS };

struct Op {
    u32 in[4];
    u32 exp;
};

struct Lane {
    std::string name;
    Kind kind;
    u32 lat = 0;
    struct Pending {
        Op op;
        u64 t;
    };
    std::deque<Pending> q;
    u64 n = 0, bad = 0;
    std::vector<std::string> msgs;

    Lane(std::string nm, Kind k) : name(std::move(nm)), kind(k) {}

    bool same(u32 e, u32 g) const {
        if (kind == F32 && nan32(e)) return nan32(g);
        if (kind == F16 && nan16(e)) return nan16(g);
        return e == g;
    }
    void fail(const std::string& m) {
        bad++;
        if (msgs.size() < 10) msgs.push_back(name + ": " + m);
    }
    static std::string describe(const Op& op, u32 got) {
        char buf[160];
        snprintf(buf, sizeof buf, "in %08x %08x %08x %08x expected %08x got %08x", op.in[0],
                 op.in[1], op.in[2], op.in[3], op.exp, got);
        return buf;
    }
    // Called just before an enabled clock edge, when outputs show the oldest operation.
    void sample(bool ov, u32 got, u64 t) {
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
                fail(buf + describe(p.op, got));
            } else if (!same(p.op.exp, got)) {
                fail(describe(p.op, got));
            }
            n++;
        } else if (!q.empty() && q.front().t + lat <= t) {
            fail("missing output: " + describe(q.front().op, 0));
            q.pop_front();
        }
    }
};

// One unit of fp_top: how to make an operation, drive the ports, read both variants.
struct Unit {
    std::string name;
    std::function<void(Rng&, u64, Op&)> gen;
    std::function<void(Vfp_top*, bool, const Op&)> drive;
    std::function<void(Vfp_top*, Lane&, Lane&, u64)> sample;
    std::function<void(Vfp_top*, Lane&, Lane&)> latencies;
    Kind kind;
    u64 want = 0, issued = 0;
    std::unique_ptr<Lane> d, x;
};

// Runs `f` with the FPU in rounding mode rm (0 rte, 1 rtz, 2 rtp, 3 rtn).
static const int FE_MODE[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
template <class F> static auto in_mode(int rm, F f) {
    fesetround(FE_MODE[rm & 3]);
    auto v = f();
    fesetround(FE_TONEAREST);
    return v;
}

// ---------------------------------------------------------------- reference models
// Mismatches between two references: the testbench's own consistency checks.
static u64 self_check_failures = 0;
static void self_check(bool ok, const char* what, u32 a, u32 b, u32 c) {
    if (ok) return;
    if (self_check_failures++ < 10)
        printf("SELF-CHECK %s: in %08x mode %u: other reference %08x\n", what, a, b, c);
}

// binary32 -> binary16 in rounding mode rm, by integer arithmetic on the exact value.
static u32 f2h_model(u32 x, u32 rm) {
    u32 s = x >> 31, e = (x >> 23) & 0xff, m = x & 0x7fffff;
    u32 sh = s << 15;
    if (e == 255) return m ? 0x7e00 : (sh | 0x7c00);
    if (e == 0 && m == 0) return sh;
    u64 M = e ? (m | 0x800000) : m;
    int E = (e ? (int)e : 1) - 150;          // value = M * 2^E
    int L = 63 - __builtin_clzll(M) + E;     // exponent of the leading one
    int q = L - 10 > -24 ? L - 10 : -24;     // exponent of the result's last place
    int k = q - E;                           // bits that do not fit
    u64 R, rem = 0, half = 1;
    if (k <= 0) {
        R = M << -k;
    } else if (k > 60) {
        R = 0;
        rem = M;
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
    return sh | (u32)bits;
}

// binary16 -> binary32, exact.
static u32 h2f_model(u32 h) {
    u32 s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 0x3ff;
    if (e == 31) return m ? 0x7fc00000 : ((s << 31) | 0x7f800000);
    double v = ldexp((double)(e ? (m | 0x400) : m), (e ? (int)e : 1) - 25);
    return (s << 31) | u_of((float)v);
}

static u32 f16_bits(_Float16 h) {
    u16 x;
    memcpy(&x, &h, 2);
    return x;
}

// ---------------------------------------------------------------- the units
static std::vector<Unit> units() {
    std::vector<Unit> us;
    auto add = [&](const char* name, Kind k, auto gen, auto drive, auto sample, auto lat) {
        Unit u;
        u.name = name;
        u.kind = k;
        u.gen = gen;
        u.drive = drive;
        u.sample = sample;
        u.latencies = lat;
        us.push_back(std::move(u));
    };
    const u64 NE = EDGE.size();

    add(
        "add", F32,
        [NE](Rng& r, u64 i, Op& op) {
            u32 a, b;
            if (i < NE * NE) {
                a = EDGE[i / NE];
                b = EDGE[i % NE];
            } else {
                a = gen_f32(r);
                b = r.chance(3) ? gen_f32(r) : gen_near(r, a);
            }
            u32 s = r.below(2);
            volatile float fa = f_of(a), fb = f_of(b);
            op = {{a, b, s, 0}, u_of(s ? fa - fb : fa + fb)};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->add_v = v;
            t->add_a = op.in[0];
            t->add_b = op.in[1];
            t->add_sub = op.in[2];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->add_d_ov, t->add_d_r, c);
            x.sample(t->add_x_ov, t->add_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->add_d_lat;
            x.lat = t->add_x_lat;
        });

    add(
        "mul", F32,
        [NE](Rng& r, u64 i, Op& op) {
            u32 a, b;
            if (i < NE * NE) {
                a = EDGE[i / NE];
                b = EDGE[i % NE];
            } else {
                a = gen_f32(r);
                b = gen_f32(r);
                if (r.chance(3)) {
                    // Aim the product's exponent at overflow or at the subnormal range.
                    static const int T[] = {254, 253, 255, 1, 0, -1, -10, -22, -23, -24, -25};
                    int target = T[r.below(11)] + (int)r.below(3) - 1;
                    b = with_exp(b, target + 127 - exp_of(a));
                }
            }
            volatile float fa = f_of(a), fb = f_of(b);
            op = {{a, b, 0, 0}, u_of(fa * fb)};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->mul_v = v;
            t->mul_a = op.in[0];
            t->mul_b = op.in[1];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->mul_d_ov, t->mul_d_r, c);
            x.sample(t->mul_x_ov, t->mul_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->mul_d_lat;
            x.lat = t->mul_x_lat;
        });

    // Operand pairs for the comparisons: equal values and near neighbours are common.
    auto pair = [NE](Rng& r, u64 i, u32& a, u32& b) {
        if (i < NE * NE) {
            a = EDGE[i / NE];
            b = EDGE[i % NE];
            return;
        }
        a = gen_f32(r);
        switch (r.below(4)) {
        case 0: b = a; break;
        case 1: b = gen_near(r, a); break;
        default: b = gen_f32(r);
        }
    };

    add(
        "cmp", BITS,
        [pair](Rng& r, u64 i, Op& op) {
            u32 a, b;
            pair(r, i, a, b);
            volatile float fa = f_of(a), fb = f_of(b);
            u32 e = (u32)(fa == fb) | (u32)(fa < fb) << 1 | (u32)(fa <= fb) << 2 |
                    (u32)std::isunordered(fa, fb) << 3;
            op = {{a, b, 0, 0}, e};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->cmp_v = v;
            t->cmp_a = op.in[0];
            t->cmp_b = op.in[1];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->cmp_d_ov, t->cmp_d_r, c);
            x.sample(t->cmp_x_ov, t->cmp_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->cmp_d_lat;
            x.lat = t->cmp_x_lat;
        });

    add(
        "minmax", F32,
        [pair](Rng& r, u64 i, Op& op) {
            u32 a, b, mx = r.below(2);
            pair(r, i, a, b);
            volatile float fa = f_of(a), fb = f_of(b);
            u32 e;
            // The OpenCL rule: a NaN operand loses to a number; two NaNs give a NaN.
            if (nan32(a) && nan32(b)) e = 0x7fc00000;
            else if (nan32(a)) e = b;
            else if (nan32(b)) e = a;
            else if (((a | b) & 0x7fffffffu) == 0) e = mx ? (a & b) : (a | b); // -0 < +0
            else e = u_of(mx ? std::fmax(fa, fb) : std::fmin(fa, fb));
            op = {{a, b, mx, 0}, e};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->mm_v = v;
            t->mm_a = op.in[0];
            t->mm_b = op.in[1];
            t->mm_max = op.in[2];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->mm_d_ov, t->mm_d_r, c);
            x.sample(t->mm_x_ov, t->mm_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->mm_d_lat;
            x.lat = t->mm_x_lat;
        });

    static const u32 INT_EDGE[] = {0,          1,          2,          3,          0x7fffffff,
                                   0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0x00ffffff,
                                   0x01000000, 0x01000001, 0x01000002, 0x01000003, 0x02000002,
                                   0x02000006, 0xfeffffff, 0xff000000, 0xfefffffe, 0x7fffff80,
                                   0x7fffffc0, 0x7fffffc1, 0xffffff80, 0xffffff7f, 0x80000080};
    const u64 NI = sizeof INT_EDGE / sizeof INT_EDGE[0];
    // Floats around the integer boundaries, ties and the edges of both integer types.
    static const u32 TO_INT_EDGE[] = {
        0x3f000000, 0x3fc00000, 0x40200000, 0x40600000, 0x3f000001, 0x3effffff, 0x4effffff,
        0x4f000000, 0x4f000001, 0x4f7fffff, 0x4f800000, 0x4f800001, 0xcf000000, 0xcf000001,
        0xbf000000, 0xbf800000, 0xbe800000, 0x4b000001, 0x4affffff, 0xcb000001, 0x3e800000};
    const u64 NTI = sizeof TO_INT_EDGE / sizeof TO_INT_EDGE[0];

    add(
        "to_int", BITS,
        [NE, NTI](Rng& r, u64 i, Op& op) {
            u32 a = gen_f32(r), rm = r.below(4), sg = r.below(2), sat = r.below(2);
            u64 ne = NE + NTI;
            if (i < ne * 16) {
                // Every edge value in every mode, type and saturation setting.
                u64 j = i / 16;
                a = j < NE ? EDGE[j] : TO_INT_EDGE[j - NE];
                rm = i & 3;
                sg = (i >> 2) & 1;
                sat = (i >> 3) & 1;
            } else if (r.chance(2)) {
                a = with_exp(r.u(), 118 + (int)r.below(44)); // 2^-9 .. 2^34
                if (r.chance(3)) a &= ~0x3fu << r.below(20); // more exact halves
            }
            double d = f_of(a), rd = 0;
            if (!nan32(a)) {
                rd = in_mode((int)rm, [&] {
                    volatile double v = d;
                    return std::nearbyint(v);
                });
                double alt = rm == 0 ? std::nearbyint(d)
                             : rm == 1 ? std::trunc(d)
                             : rm == 2 ? std::ceil(d)
                                       : std::floor(d);
                self_check(rd == alt, "fesetround+nearbyint vs trunc/ceil/floor", a, rm, 0);
            }
            bool fits = !nan32(a) && (sg ? rd >= -2147483648.0 && rd <= 2147483647.0
                                         : rd >= 0.0 && rd <= 4294967295.0);
            u32 e;
            if (fits) e = (u32)(int64_t)rd;
            else if (!sat) e = 0x80000000u;
            else if (nan32(a)) e = 0;
            else if (rd < 0) e = sg ? 0x80000000u : 0;
            else e = sg ? 0x7fffffffu : 0xffffffffu;
            op = {{a, rm, sg, sat}, e};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->ti_v = v;
            t->ti_a = op.in[0];
            t->ti_rm = op.in[1];
            t->ti_sgn = op.in[2];
            t->ti_sat = op.in[3];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->ti_d_ov, t->ti_d_r, c);
            x.sample(t->ti_x_ov, t->ti_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->ti_d_lat;
            x.lat = t->ti_x_lat;
        });

    add(
        "int_to_fp", F32,
        [NI](Rng& r, u64 i, Op& op) {
            u32 x = r.u() >> r.below(32), rm = r.below(4), sg = r.below(2);
            if (i < NI * 8) {
                x = INT_EDGE[i / 8];
                rm = i & 3;
                sg = (i >> 2) & 1;
            } else if (r.chance(3)) {
                x = (r.u() & 0x1ffffffu) << r.below(8); // 25 significant bits: ties
            }
            if (r.chance(4)) x = 0u - x;
            u32 e = in_mode((int)rm, [&] {
                if (sg) {
                    volatile int32_t v = (int32_t)x;
                    return u_of((float)v);
                }
                volatile uint32_t v = x;
                return u_of((float)v);
            });
            op = {{x, rm, sg, 0}, e};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->itf_v = v;
            t->itf_in = op.in[0];
            t->itf_rm = op.in[1];
            t->itf_sgn = op.in[2];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->itf_d_ov, t->itf_d_r, c);
            x.sample(t->itf_x_ov, t->itf_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->itf_d_lat;
            x.lat = t->itf_x_lat;
        });

    // Floats around the binary16 range: largest half, its overflow tie, subnormal halves.
    static const u32 HALF_EDGE[] = {
        0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x38800000, 0x387fc000,
        0x387fe000, 0x33800000, 0x33000000, 0x33000001, 0x32ffffff, 0x33c00000, 0x33a00000,
        0x3f801000, 0x3f803000, 0x3f801001, 0x38801000, 0x387ff000, 0x2f800000};
    const u64 NH = sizeof HALF_EDGE / sizeof HALF_EDGE[0];

    add(
        "to_half", F16,
        [NE, NH](Rng& r, u64 i, Op& op) {
            u32 a = gen_f32(r), rm = r.below(4);
            if (i < (NE + NH) * 8) {
                u64 j = i / 8;
                a = (j < NE ? EDGE[j] : HALF_EDGE[j - NE]) ^ ((u32)(i >> 2 & 1) << 31);
                rm = i & 3;
            } else if (r.chance(3)) {
                a = with_exp(r.u(), 127 - 28 + (int)r.below(46)); // the half range and below
                if (r.chance(2)) a = trailing_zeros(r, a);
            }
            u32 e = f2h_model(a, rm);
            u32 h = in_mode((int)rm, [&] {
                volatile float f = f_of(a);
                return f16_bits((_Float16)f);
            });
            self_check(nan16(e) ? nan16(h) : e == h, "f2h model vs _Float16", a, rm, h);
            op = {{a, rm, 0, 0}, e};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->th_v = v;
            t->th_a = op.in[0];
            t->th_rm = op.in[1];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->th_d_ov, t->th_d_r, c);
            x.sample(t->th_x_ov, t->th_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->th_d_lat;
            x.lat = t->th_x_lat;
        });

    add(
        "half_to_fp", F32,
        [](Rng& r, u64 i, Op& op) {
            // Every half once, then random ones.
            u32 h = i < 65536 ? (u32)i : (r.u() & 0xffff);
            u32 e = h2f_model(h);
            _Float16 hh;
            u16 hb = (u16)h;
            memcpy(&hh, &hb, 2);
            volatile float f = (float)hh;
            self_check(nan32(e) ? nan32(u_of(f)) : e == u_of(f), "h2f model vs _Float16", h, 0,
                       u_of(f));
            op = {{h, 0, 0, 0}, e};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->hf_v = v;
            t->hf_h = op.in[0];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->hf_d_ov, t->hf_d_r, c);
            x.sample(t->hf_x_ov, t->hf_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->hf_d_lat;
            x.lat = t->hf_x_lat;
        });

    add(
        "div", F32,
        [NE](Rng& r, u64 i, Op& op) {
            u32 a, b;
            if (i < NE * NE) {
                a = EDGE[i / NE];
                b = EDGE[i % NE];
            } else {
                a = gen_f32(r);
                b = gen_f32(r);
                u32 k = r.below(4);
                if (k == 0) {
                    // Aim the quotient's exponent at overflow or at the subnormal range.
                    static const int T[] = {254, 253, 255, 1, 0, -1, -10, -22, -23, -24, -25};
                    int target = T[r.below(11)] + (int)r.below(3) - 1;
                    b = with_exp(b, exp_of(a) - target + 127);
                } else if (k == 1) {
                    // Exact or nearly exact quotients: a is b times a short number.
                    static const float Q[] = {1.0f, 2.0f, 3.0f, 0.5f, 0.75f, 1.5f, 7.0f, 0.375f};
                    volatile float fb = f_of(b), q = Q[r.below(8)];
                    a = u_of(fb * q) + r.below(3) - 1;
                }
            }
            volatile float fa = f_of(a), fb = f_of(b);
            op = {{a, b, 0, 0}, u_of(fa / fb)};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->div_v = v;
            t->div_a = op.in[0];
            t->div_b = op.in[1];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->div_d_ov, t->div_d_r, c);
            x.sample(t->div_x_ov, t->div_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->div_d_lat;
            x.lat = t->div_x_lat;
        });

    add(
        "sqrt", F32,
        [NE](Rng& r, u64 i, Op& op) {
            u32 a = gen_f32(r);
            if (i < NE) {
                a = EDGE[i];
            } else {
                if (!r.chance(4)) a &= 0x7fffffffu;
                if (r.chance(4)) {
                    // Squares of short numbers: exact roots, and their neighbours.
                    volatile float x = f_of(r.u() & 0x7ffff000u);
                    a = u_of(x * x) + r.below(3) - 1;
                }
            }
            volatile float fa = f_of(a);
            op = {{a, 0, 0, 0}, u_of(std::sqrt(fa))};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->sqrt_v = v;
            t->sqrt_a = op.in[0];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->sqrt_d_ov, t->sqrt_d_r, c);
            x.sample(t->sqrt_x_ov, t->sqrt_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->sqrt_d_lat;
            x.lat = t->sqrt_x_lat;
        });

    add(
        "fma", F32,
        [NE](Rng& r, u64 i, Op& op) {
            u32 a, b, c;
            if (i < NE * NE * NE) {
                a = EDGE[i / (NE * NE)];
                b = EDGE[(i / NE) % NE];
                c = EDGE[i % NE];
            } else {
                a = gen_f32(r);
                b = gen_f32(r);
                if (r.chance(4)) {
                    static const int T[] = {254, 253, 255, 1, 0, -1, -10, -22, -23, -24, -25, -60};
                    int target = T[r.below(12)] + (int)r.below(3) - 1;
                    b = with_exp(b, target + 127 - exp_of(a));
                }
                volatile float fa = f_of(a), fb = f_of(b);
                u32 p = u_of(fa * fb);
                switch (r.below(5)) {
                case 0: c = gen_f32(r); break;
                case 1: c = (p ^ 0x80000000u) + r.below(5) - 2; break; // cancellation
                case 2: c = gen_near(r, p); break;
                case 3: c = with_exp(r.u(), exp_of(p) + (int)r.below(120) - 60); break;
                default: c = trailing_zeros(r, gen_near(r, p)); break;
                }
            }
            volatile float fa = f_of(a), fb = f_of(b), fc = f_of(c);
            op = {{a, b, c, 0}, u_of(std::fma((float)fa, (float)fb, (float)fc))};
        },
        [](Vfp_top* t, bool v, const Op& op) {
            t->fma_v = v;
            t->fma_a = op.in[0];
            t->fma_b = op.in[1];
            t->fma_c = op.in[2];
        },
        [](Vfp_top* t, Lane& d, Lane& x, u64 c) {
            d.sample(t->fma_d_ov, t->fma_d_r, c);
            x.sample(t->fma_x_ov, t->fma_x_r, c);
        },
        [](Vfp_top* t, Lane& d, Lane& x) {
            d.lat = t->fma_d_lat;
            x.lat = t->fma_x_lat;
        });

    return us;
}

// ---------------------------------------------------------------- main loop
int main(int argc, char** argv) {
    u64 n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1000000;
    u64 seed = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1;
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vfp_top>(ctx.get());
    Rng r(seed);
    std::vector<Unit> us = units();
    for (auto& u : us) {
        u.want = n;
        u.d = std::make_unique<Lane>(u.name, u.kind);
        u.x = std::make_unique<Lane>(u.name + "(alt latency)", u.kind);
    }
    Op idle{{0, 0, 0, 0}, 0};
    top->clk = 0;
    top->en = 1;
    top->rst = 1;
    for (auto& u : us) u.drive(top.get(), false, idle);
    for (int i = 0; i < 4; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    top->clk = 0;
    top->eval();
    for (auto& u : us) u.latencies(top.get(), *u.d, *u.x);

    u64 t = 0, cycle = 0;
    bool aborted = false;
    for (;;) {
        bool busy = false;
        for (auto& u : us) busy |= u.issued < u.want || !u.d->q.empty() || !u.x->q.empty();
        if (!busy) break;
        // Random stalls and bubbles in the first third of the run, full rate after.
        bool stalls = cycle < n / 3;
        bool en = !stalls || !r.chance(3);
        top->clk = 0;
        top->en = en;
        for (auto& u : us) {
            bool v = u.issued < u.want && (!stalls || !r.chance(5));
            Op op = idle;
            if (v || r.chance(2)) u.gen(r, v ? u.issued : ~0ull, op);
            // With en low the unit must ignore whatever is on its inputs.
            if (en && v) {
                u.d->q.push_back({op, t});
                u.x->q.push_back({op, t});
                u.issued++;
            }
            u.drive(top.get(), en ? v : r.chance(2), op);
        }
        top->eval();
        if (en)
            for (auto& u : us) u.sample(top.get(), *u.d, *u.x, t);
        top->clk = 1;
        top->eval();
        if (en) t++;
        cycle++;
        u64 bad = 0;
        for (auto& u : us) bad += u.d->bad + u.x->bad;
        if (bad > 1000) {
            aborted = true;
            printf("stopped early after %" PRIu64 " mismatches\n", bad);
            break;
        }
    }
    bool ok = !aborted;
    for (auto& u : us) {
        for (Lane* l : {u.d.get(), u.x.get()}) {
            // After an early stop, operations still in flight are not failures.
            if (l->bad || (!aborted && !l->q.empty())) {
                ok = false;
                printf("FAIL %s: %" PRIu64 " mismatches, %zu never came out\n", l->name.c_str(),
                       l->bad, l->q.size());
                for (auto& m : l->msgs) printf("  %s\n", m.c_str());
            }
        }
        if (!aborted && !u.d->bad && !u.x->bad && u.d->q.empty() && u.x->q.empty())
            printf("PASS %s n=%" PRIu64 " (latencies %u and %u)\n", u.name.c_str(), u.d->n,
                   u.d->lat, u.x->lat);
    }
    if (self_check_failures) {
        ok = false;
        printf("FAIL reference self-checks: %" PRIu64 " disagreements\n", self_check_failures);
    }
    printf("cycles %" PRIu64 "\n", cycle);
    {
        volatile float p = 0.0f, m = -0.0f;
        printf("host: fminf(-0,+0)=%08x fminf(+0,-0)=%08x fmaxf(-0,+0)=%08x fmaxf(+0,-0)=%08x\n",
               u_of(std::fmin(m, p)), u_of(std::fmin(p, m)), u_of(std::fmax(m, p)),
               u_of(std::fmax(p, m)));
    }
    top->final();
    return ok ? 0 : 1;
}
