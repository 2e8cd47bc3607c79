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
        if (bad > 1000) break;
    }
    bool ok = true;
    for (auto& u : us) {
        for (Lane* l : {u.d.get(), u.x.get()}) {
            if (l->bad || !l->q.empty()) {
                ok = false;
                printf("FAIL %s: %" PRIu64 " mismatches, %zu never came out\n", l->name.c_str(),
                       l->bad, l->q.size());
                for (auto& m : l->msgs) printf("  %s\n", m.c_str());
            }
        }
        if (!u.d->bad && !u.x->bad && u.d->q.empty() && u.x->q.empty())
            printf("PASS %s n=%" PRIu64 " (latencies %u and %u)\n", u.name.c_str(), u.d->n,
                   u.d->lat, u.x->lat);
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
