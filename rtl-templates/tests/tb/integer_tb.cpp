// integer_tb: drives tb_integer (div, mul_hi, add/sub_sat, clz, popcount, rotate at widths
// 8..64, signed and unsigned) with edge-case and random operands and compares every result
// with a C++ model of OpenCL C semantics. The pipelined units run with a random global
// enable. Usage: sim SEED CYCLES. Prints "PASS ..." or the first mismatches and exits 1.
#include "Vtb_integer.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace {

typedef unsigned __int128 u128;
typedef __int128 i128;

int errors = 0;
void fail(int w, const char* unit, uint64_t a, uint64_t b, uint64_t got, uint64_t want) {
    if (errors < 12)
        std::printf("MISMATCH W=%d %s a=0x%llx b=0x%llx: got 0x%llx want 0x%llx\n", w, unit,
                    (unsigned long long)a, (unsigned long long)b, (unsigned long long)got,
                    (unsigned long long)want);
    errors++;
}

uint64_t mask(int w) { return w == 64 ? ~0ull : ((1ull << w) - 1); }
int64_t sx(uint64_t v, int w) { return w == 64 ? int64_t(v) : int64_t(v << (64 - w)) >> (64 - w); }

// OpenCL / C99 division with the documented choices for x/0 and MIN/-1.
void div_model(uint64_t a, uint64_t b, int w, bool sgn, uint64_t& q, uint64_t& r) {
    uint64_t m = mask(w);
    if (b == 0) { q = m; r = a; return; }
    if (!sgn) { q = a / b; r = a % b; return; }
    int64_t sa = sx(a, w), sb = sx(b, w);
    int64_t min = w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1));
    if (sa == min && sb == -1) { q = a; r = 0; return; }
    q = uint64_t(sa / sb) & m;
    r = uint64_t(sa % sb) & m;
}
uint64_t mulhi_model(uint64_t a, uint64_t b, int w, bool sgn) {
    if (sgn) return uint64_t(u128(i128(sx(a, w)) * i128(sx(b, w))) >> w) & mask(w);
    return uint64_t((u128(a) * u128(b)) >> w) & mask(w);
}
uint64_t sat_model(uint64_t a, uint64_t b, bool sub, int w, bool sgn) {
    i128 x = sgn ? i128(sx(a, w)) : i128(a), y = sgn ? i128(sx(b, w)) : i128(b);
    i128 s = sub ? x - y : x + y;
    i128 lo = sgn ? -(i128(1) << (w - 1)) : 0, hi = sgn ? (i128(1) << (w - 1)) - 1 : i128(mask(w));
    if (s < lo) s = lo;
    if (s > hi) s = hi;
    return uint64_t(s) & mask(w);
}
uint64_t clz_model(uint64_t a, int w) {
    int n = 0;
    for (int i = w - 1; i >= 0 && !((a >> i) & 1); i--) n++;
    return n;
}
uint64_t pop_model(uint64_t a) { return __builtin_popcountll(a); }
uint64_t rot_model(uint64_t a, uint64_t b, int w) {
    unsigned s = unsigned(b) & (w - 1);
    if (s == 0) return a;
    return ((a << s) | (a >> (w - s))) & mask(w);
}

struct Expect {
    uint64_t a, b;
};

// One width: pointers into the model's ports (the port types differ per width).
template <typename T> struct Lane {
    int w;
    T *a, *b;
    CData* sub;
    CData *divs_v, *divu_v, *muls_v, *mulu_v;
    T *divs_q, *divs_r, *divu_q, *divu_r, *muls_hi, *mulu_hi, *sats, *satu, *rot;
    CData *clz, *pop;
    std::deque<Expect> div_pending, mul_pending;
    uint64_t checked = 0;

    void drive(uint64_t av, uint64_t bv, bool s) {
        *a = T(av);
        *b = T(bv);
        *sub = s;
    }
    // Combinational units, checked in the cycle their operands are applied.
    void check_comb() {
        uint64_t av = *a, bv = *b;
        bool s = *sub;
        const char* sn = s ? "sub_sat unsigned" : "add_sat unsigned";
        uint64_t want = sat_model(av, bv, s, w, true);
        if (uint64_t(*sats) != want) fail(w, s ? "sub_sat signed" : "add_sat signed", av, bv, *sats, want);
        want = sat_model(av, bv, s, w, false);
        if (uint64_t(*satu) != want) fail(w, sn, av, bv, *satu, want);
        if (uint64_t(*clz) != clz_model(av, w)) fail(w, "clz", av, 0, *clz, clz_model(av, w));
        if (uint64_t(*pop) != pop_model(av)) fail(w, "popcount", av, 0, *pop, pop_model(av));
        if (uint64_t(*rot) != rot_model(av, bv, w)) fail(w, "rotate", av, bv, *rot, rot_model(av, bv, w));
    }
    // Pipelined units: sampled when the pipeline advances.
    void check_pipes(bool en, bool in_valid) {
        if (!en) return;
        if (*divs_v != *divu_v) fail(w, "div valid signed vs unsigned", 0, 0, *divs_v, *divu_v);
        if (*divs_v) {
            if (div_pending.empty()) fail(w, "div out_valid without input", 0, 0, 1, 0);
            else {
                Expect e = div_pending.front();
                div_pending.pop_front();
                uint64_t q, r;
                div_model(e.a, e.b, w, true, q, r);
                if (uint64_t(*divs_q) != q) fail(w, "div signed quotient", e.a, e.b, *divs_q, q);
                if (uint64_t(*divs_r) != r) fail(w, "div signed remainder", e.a, e.b, *divs_r, r);
                div_model(e.a, e.b, w, false, q, r);
                if (uint64_t(*divu_q) != q) fail(w, "div unsigned quotient", e.a, e.b, *divu_q, q);
                if (uint64_t(*divu_r) != r) fail(w, "div unsigned remainder", e.a, e.b, *divu_r, r);
                checked++;
            }
        }
        if (*muls_v != *mulu_v) fail(w, "mul_hi valid signed vs unsigned", 0, 0, *muls_v, *mulu_v);
        if (*muls_v) {
            if (mul_pending.empty()) fail(w, "mul_hi out_valid without input", 0, 0, 1, 0);
            else {
                Expect e = mul_pending.front();
                mul_pending.pop_front();
                uint64_t want = mulhi_model(e.a, e.b, w, true);
                if (uint64_t(*muls_hi) != want) fail(w, "mul_hi signed", e.a, e.b, *muls_hi, want);
                want = mulhi_model(e.a, e.b, w, false);
                if (uint64_t(*mulu_hi) != want) fail(w, "mul_hi unsigned", e.a, e.b, *mulu_hi, want);
            }
        }
        if (in_valid) {
            div_pending.push_back({uint64_t(*a), uint64_t(*b)});
            mul_pending.push_back({uint64_t(*a), uint64_t(*b)});
        }
    }
};

#define LANE(T, W)                                                                             \
    Lane<T> {                                                                                  \
        W, &top->a_##W, &top->b_##W, &top->sub_##W, &top->divs_v_##W, &top->divu_v_##W,       \
            &top->muls_v_##W, &top->mulu_v_##W, &top->divs_q_##W, &top->divs_r_##W,           \
            &top->divu_q_##W, &top->divu_r_##W, &top->muls_hi_##W, &top->mulu_hi_##W,         \
            &top->sats_##W, &top->satu_##W, &top->rot_##W, &top->clz_##W, &top->pop_##W, {}, {}, 0 \
    }

// Operands: the edge values of the width crossed with each other first, then random
// values of random magnitude (so small divisors and long quotients both occur), with
// edge values mixed in.
struct Source {
    int w;
    std::vector<uint64_t> edges;
    size_t n = 0;
    explicit Source(int w_) : w(w_) {
        uint64_t m = mask(w), min = 1ull << (w - 1);
        edges = {0, 1, 2, 3, m, m - 1, min, min - 1, min + 1, m >> 1, 7, m - 6};
    }
    uint64_t random(std::mt19937_64& rng) {
        if (rng() % 8 == 0) return edges[rng() % edges.size()];
        int bits = 1 + int(rng() % w);
        return rng() & mask(bits);
    }
    void next(std::mt19937_64& rng, uint64_t& a, uint64_t& b) {
        size_t e = edges.size();
        if (n < e * e) {
            a = edges[n / e];
            b = edges[n % e];
        } else {
            a = random(rng);
            b = random(rng);
        }
        n++;
    }
};

}  // namespace

int main(int argc, char** argv) {
    uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
    uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 120000;
    std::mt19937_64 rng(seed);
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtb_integer>(ctx.get());
    Lane<CData> l8 = LANE(CData, 8);
    Lane<SData> l16 = LANE(SData, 16);
    Lane<IData> l32 = LANE(IData, 32);
    Lane<QData> l64 = LANE(QData, 64);
    Source s8(8), s16(16), s32(32), s64(64);
    auto tick = [&] {
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
    };
    top->rst = 1;
    top->en = 1;
    top->in_valid = 0;
    tick();
    tick();
    top->rst = 0;
    uint64_t applied = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        // Mostly enabled; sometimes stalled; after the main run, drain the pipelines.
        bool draining = c + 80 >= cycles;
        bool en = draining || (rng() % 16 != 0);
        bool iv = !draining && en && (rng() % 32 != 0);
        uint64_t a, b;
        bool sub = rng() & 1;
        // Operands only change when they are taken, so every vector is checked once.
        if (en || c == 0) {
            s8.next(rng, a, b); l8.drive(a, b, sub);
            s16.next(rng, a, b); l16.drive(a, b, sub);
            s32.next(rng, a, b); l32.drive(a, b, sub);
            s64.next(rng, a, b); l64.drive(a, b, sub);
        }
        top->en = en;
        top->in_valid = iv;
        top->eval();
        l8.check_comb(); l16.check_comb(); l32.check_comb(); l64.check_comb();
        l8.check_pipes(en, iv); l16.check_pipes(en, iv); l32.check_pipes(en, iv); l64.check_pipes(en, iv);
        if (iv) applied++;
        tick();
    }
    for (auto* p : {&l8.div_pending, &l16.div_pending, &l32.div_pending, &l64.div_pending})
        if (!p->empty()) fail(0, "div results missing after drain", 0, 0, p->size(), 0);
    if (errors) {
        std::printf("FAIL errors=%d\n", errors);
        return 1;
    }
    std::printf("PASS cycles=%llu pipelined_ops=%llu div_checked_w64=%llu\n", (unsigned long long)cycles,
                (unsigned long long)applied, (unsigned long long)l64.checked);
    return 0;
}
