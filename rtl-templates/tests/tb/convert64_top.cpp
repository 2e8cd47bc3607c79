// convert64_top.cpp: C++ testbench of the 64-bit conversion units (convert64_top.v).
// Every cycle each unit gets a fresh operation (first every edge value in every mode,
// then random operands aimed at ties and range limits); float -> int64 is checked
// against the host's nearbyint in the chosen rounding mode, int64 -> float against an
// integer rounding model that is itself checked against the host's conversion.
// Usage: sim [ops-per-unit] [seed]. Prints `PASS <op> n=<count>` per unit; on a mismatch
// prints the first 10 (inputs, expected, got in hex) and exits 1.
#include "Vconvert64_top.h"
#include "verilated.h"

#include <cfenv>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

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

struct Rng {
    std::mt19937_64 g;
    explicit Rng(u64 seed) : g(seed) {}
    u64 u() { return g(); }
    u32 below(u32 n) { return (u32)(g() % n); }
    bool chance(u32 n) { return below(n) == 0; }
};

static const int FE_MODE[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
template <class F> static auto in_mode(int rm, F f) {
    fesetround(FE_MODE[rm & 3]);
    auto v = f();
    fesetround(FE_TONEAREST);
    return v;
}

static u64 self_check_failures = 0;

struct Op {
    u64 in[4];
    u64 exp;
};

// The results of one unit instance, in issue order, with their issue times.
struct Lane {
    std::string name;
    u32 lat;
    std::deque<std::pair<Op, u64>> q;
    u64 n = 0, bad = 0;
    std::vector<std::string> msgs;
    Lane(std::string nm, u32 l) : name(std::move(nm)), lat(l) {}
    void fail(const Op& op, u64 got, const char* what) {
        bad++;
        if (msgs.size() < 10) {
            char buf[200];
            snprintf(buf, sizeof buf, "%s: %sin %016" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                     " expected %016" PRIx64 " got %016" PRIx64,
                     name.c_str(), what, op.in[0], op.in[1], op.in[2], op.in[3], op.exp, got);
            msgs.push_back(buf);
        }
    }
    void sample(bool ov, u64 got, u64 t) {
        if (ov) {
            if (q.empty()) {
                fail(Op{{0, 0, 0, 0}, 0}, got, "output valid with nothing issued: ");
                return;
            }
            auto [op, t0] = q.front();
            q.pop_front();
            if (t - t0 != lat) fail(op, got, "wrong latency: ");
            else if (op.exp != got) fail(op, got, "");
            n++;
        } else if (!q.empty() && q.front().second + lat <= t) {
            fail(q.front().first, 0, "missing output: ");
            q.pop_front();
        }
    }
};

// ---------------------------------------------------------------- float -> int64
static const u32 F_EDGE[] = {
    0x00000000, 0x00000001, 0x007fffff, 0x00800000, 0x3effffff, 0x3f000000, 0x3f000001,
    0x3f7fffff, 0x3f800000, 0x3fc00000, 0x40200000, 0x40600000, 0x4b000000, 0x4b000001,
    0x4effffff, 0x4f000000, 0x4f800000, 0x5effffff, 0x5f000000, 0x5f000001, 0x5f7fffff,
    0x5f800000, 0x5f800001, 0x7f7fffff, 0x7f800000, 0x7fc00000, 0x7fa00000, 0x7fffffff};
static const u64 NF = sizeof F_EDGE / sizeof F_EDGE[0];

static u64 to_int_ref(u32 a, u32 rm, bool sg, bool sat) {
    double rd = 0;
    if (!nan32(a)) {
        rd = in_mode((int)rm, [&] {
            volatile double v = f_of(a);
            return std::nearbyint(v);
        });
        double d = f_of(a);
        double alt = rm == 0 ? std::nearbyint(d) : rm == 1 ? std::trunc(d)
                     : rm == 2 ? std::ceil(d) : std::floor(d);
        if (alt != rd && self_check_failures++ < 10)
            printf("SELF-CHECK nearbyint: %08x mode %u\n", a, rm);
    }
    const double two63 = 9223372036854775808.0, two64 = 18446744073709551616.0;
    bool fits = !nan32(a) && (sg ? rd >= -two63 && rd < two63 : rd >= 0.0 && rd < two64);
    if (fits) return sg ? (u64)(int64_t)rd : (u64)rd;
    if (!sat) return 1ull << 63;
    if (nan32(a)) return 0;
    if (rd < 0) return sg ? 1ull << 63 : 0;
    return sg ? (1ull << 63) - 1 : ~0ull;
}

static Op gen_to_int(Rng& r, u64 i) {
    u32 a = (u32)r.u(), rm = r.below(4), sg = r.below(2), sat = r.below(2);
    if (i < 2 * NF * 16) {
        u64 j = i / 16;
        a = F_EDGE[j % NF] | (j >= NF ? 0x80000000u : 0);
        rm = i & 3;
        sg = (i >> 2) & 1;
        sat = (i >> 3) & 1;
    } else if (!r.chance(4)) {
        // 2^-9 .. 2^68: fractions, ties and both integer ranges' limits.
        a = (a & 0x807fffffu) | ((118u + r.below(76)) << 23);
        if (r.chance(3)) a &= ~0x3fu << r.below(20);
    }
    return Op{{a, rm, sg, sat}, to_int_ref(a, rm, sg, sat)};
}

// ---------------------------------------------------------------- int64 -> float
// The exact integer rounded to binary32 in mode rm by integer arithmetic.
static u32 itf_model(u64 x, u32 rm, bool sg) {
    bool neg = sg && (x >> 63);
    u64 m = neg ? 0 - x : x;
    if (m == 0) return 0;
    int msb = 63 - __builtin_clzll(m);
    u32 sign = neg ? 0x80000000u : 0;
    if (msb <= 23) return sign | u_of((float)m);
    int k = msb - 23;
    u64 R = m >> k, rem = m & ((1ull << k) - 1), half = 1ull << (k - 1);
    bool up = false;
    switch (rm) {
    case 0: up = rem > half || (rem == half && (R & 1)); break;
    case 2: up = rem && !neg; break;
    case 3: up = rem && neg; break;
    default: break;
    }
    R += up;
    if (R == (1ull << 24)) {
        R >>= 1;
        k++;
    }
    return sign | ((u32)(k + 23 + 127) << 23) | ((u32)R & 0x7fffffu);
}

static const u64 I_EDGE[] = {0, 1, 2, 3, 0x7fffffffffffffffull, 0x8000000000000000ull,
                             0x8000000000000001ull, ~0ull, ~1ull, 0xffffff, 0x1000000,
                             0x1000001, 0x1000003, 0xffffff8000000000ull, 0x7fffff8000000000ull,
                             0x7fffffc000000000ull, 0x7fffffc000000001ull, 0xffffffffull,
                             0x100000000ull, 0x80000000ull, 0xffffff7fffffffffull};
static const u64 NI = sizeof I_EDGE / sizeof I_EDGE[0];

static Op gen_itf(Rng& r, u64 i) {
    u64 x = r.u() >> r.below(64);
    u32 rm = r.below(4), sg = r.below(2);
    if (i < NI * 8) {
        x = I_EDGE[i / 8];
        rm = i & 3;
        sg = (i >> 2) & 1;
    } else if (r.chance(3)) {
        x = (r.u() & 0x1ffffffull) << r.below(40); // 25 significant bits: ties
    }
    if (r.chance(4)) x = 0 - x;
    u32 e = itf_model(x, rm, sg);
    u32 host = in_mode((int)rm, [&] {
        if (sg) {
            volatile int64_t v = (int64_t)x;
            return u_of((float)v);
        }
        volatile uint64_t v = x;
        return u_of((float)v);
    });
    if (host != e && self_check_failures++ < 10)
        printf("SELF-CHECK int64->float: %016" PRIx64 " mode %u signed %u: host %08x model %08x\n",
               x, rm, sg, host, e);
    return Op{{x, rm, sg, 0}, e};
}

int main(int argc, char** argv) {
    u64 n = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1000000;
    u64 seed = argc > 2 ? strtoull(argv[2], nullptr, 10) : 1;
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vconvert64_top>(ctx.get());
    Rng r(seed);
    Lane ti_d("to_int", 2), ti_x("to_int(alt latency)", 0);
    Lane itf_d("int_to_fp", 2), itf_x("int_to_fp(alt latency)", 3);
    top->en = 1;
    top->rst = 1;
    top->ti_v = 0;
    top->itf_v = 0;
    for (int i = 0; i < 4; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    u64 ti_n = 0, itf_n = 0, t = 0, cycle = 0;
    while (ti_n < n || itf_n < n || !ti_d.q.empty() || !ti_x.q.empty() || !itf_d.q.empty() ||
           !itf_x.q.empty()) {
        // Random stalls and bubbles in the first third of the run, full rate after.
        bool stalls = cycle < n / 3;
        bool en = !stalls || !r.chance(3);
        top->clk = 0;
        top->en = en;
        bool tv = ti_n < n && (!stalls || !r.chance(5));
        Op a = gen_to_int(r, tv ? ti_n : ~0ull);
        bool iv = itf_n < n && (!stalls || !r.chance(5));
        Op b = gen_itf(r, iv ? itf_n : ~0ull);
        // With en low a unit must ignore whatever is on its inputs.
        top->ti_v = en ? tv : r.chance(2);
        top->ti_a = (u32)a.in[0];
        top->ti_rm = (u32)a.in[1];
        top->ti_sgn = (u32)a.in[2];
        top->ti_sat = (u32)a.in[3];
        top->itf_v = en ? iv : r.chance(2);
        top->itf_x = b.in[0];
        top->itf_rm = (u32)b.in[1];
        top->itf_sgn = (u32)b.in[2];
        if (en && tv) {
            ti_d.q.push_back({a, t});
            ti_x.q.push_back({a, t});
            ti_n++;
        }
        if (en && iv) {
            itf_d.q.push_back({b, t});
            itf_x.q.push_back({b, t});
            itf_n++;
        }
        top->eval();
        if (en) {
            ti_d.sample(top->ti_d_ov, top->ti_d_r, t);
            ti_x.sample(top->ti_x_ov, top->ti_x_r, t);
            itf_d.sample(top->itf_d_ov, top->itf_d_r, t);
            itf_x.sample(top->itf_x_ov, top->itf_x_r, t);
        }
        top->clk = 1;
        top->eval();
        if (en) t++;
        cycle++;
        if (ti_d.bad + ti_x.bad + itf_d.bad + itf_x.bad > 1000) {
            printf("stopped early after 1000 mismatches\n");
            break;
        }
    }
    bool ok = true;
    std::pair<Lane*, Lane*> pairs[] = {{&ti_d, &ti_x}, {&itf_d, &itf_x}};
    for (auto& pair : pairs) {
        bool good = true;
        for (Lane* l : {pair.first, pair.second}) {
            if (l->bad || !l->q.empty()) {
                good = false;
                printf("FAIL %s: %" PRIu64 " mismatches, %zu never came out\n", l->name.c_str(),
                       l->bad, l->q.size());
                for (auto& m : l->msgs) printf("  %s\n", m.c_str());
            }
        }
        if (good)
            printf("PASS %s n=%" PRIu64 " (latencies %u and %u)\n", pair.first->name.c_str(),
                   pair.first->n, pair.first->lat, pair.second->lat);
        ok &= good;
    }
    if (self_check_failures) {
        ok = false;
        printf("FAIL reference self-checks: %" PRIu64 " disagreements\n", self_check_failures);
    }
    printf("cycles %" PRIu64 "\n", cycle);
    top->final();
    return ok ? 0 : 1;
}
