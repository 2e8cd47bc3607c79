// streams_tb: drives every instance of tb_streams with random valid/ready patterns and
// checks it against a queue model (order, no loss or duplication, count/full/empty,
// AXI-stream stability, full throughput), and the stall pipelines against a shift model.
// Usage: sim SEED CYCLES. Prints "PASS ..." or the first mismatches and exits 1.
#include "Vtb_streams.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace {

struct Inst {
    const char* name;
    int width;
    int depth;       // 0: not a FIFO (no count/full/empty), capacity given by cap
    int cap;         // items it can hold
    int latency;     // cycles from a push into an empty instance to out_valid
    bool exact_ready;// in_ready must equal !full every cycle
    bool half_rate;  // documented to sustain only one item every two cycles
};

const Inst kInsts[] = {
    {"fifo_reg W8 D1", 8, 1, 1, 1, true, true},     {"fifo_reg W8 D2", 8, 2, 2, 1, true, false},
    {"fifo_reg W16 D5", 16, 5, 5, 1, true, false},  {"fifo(reg) W32 D16", 32, 16, 16, 1, true, false},
    {"fifo_ram W32 D2", 32, 2, 2, 3, true, true},   {"fifo_ram W24 D37", 24, 37, 37, 3, true, false},
    {"fifo(ram) W32 D128", 32, 128, 128, 3, true, false},
    {"skid_buffer W16", 16, 0, 2, 1, false, false}, {"pipe_reg W16", 16, 0, 1, 1, false, false},
    {"skid_buffer W1", 1, 0, 2, 1, false, false},
};
constexpr int N = sizeof(kInsts) / sizeof(kInsts[0]);

int errors = 0;
void fail(const char* inst, uint64_t cyc, const char* what, long a, long b) {
    if (errors < 10)
        std::printf("MISMATCH %s cycle %llu: %s (got %ld, want %ld)\n", inst,
                    (unsigned long long)cyc, what, a, b);
    errors++;
}

template <typename T> bool bit(const T& v, int i) { return (v >> i) & 1; }
template <typename T> void set_bit(T& v, int i, bool b) {
    v = (v & ~(T(1) << i)) | (T(b) << i);
}

struct Tb {
    std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    std::unique_ptr<Vtb_streams> top{new Vtb_streams{ctx.get()}};
    uint64_t cyc = 0;
    void tick() {
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
        cyc++;
    }
};

struct Side {
    std::deque<uint32_t> model;
    bool held_valid = false;  // producer: an offered item not yet accepted
    uint32_t held_data = 0;
    bool prev_out_stall = false;  // consumer saw valid && !ready last cycle
    uint32_t prev_out_data = 0;
    uint32_t next = 0;            // sequence source
    uint64_t pushes = 0, pops = 0;
};

}  // namespace

int main(int argc, char** argv) {
    uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
    uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 100000;
    std::mt19937_64 rng(seed);
    Tb tb;
    Side side[N];
    tb.top->rst = 1;
    tb.top->in_valid = 0;
    tb.top->out_ready = 0;
    tb.top->sp_en = 0;
    tb.tick();
    tb.tick();
    tb.top->rst = 0;

    // Stall-pipe model: one (valid, data) per stage.
    const int sp_depth[2] = {1, 4};
    std::vector<std::pair<bool, uint16_t>> sp[2] = {std::vector<std::pair<bool, uint16_t>>(1),
                                                     std::vector<std::pair<bool, uint16_t>>(4)};

    // Phases of random stalls: probabilities of offering and of accepting.
    const double phases[][2] = {{0.5, 0.5}, {0.9, 0.3}, {0.3, 0.9}, {1.0, 1.0}, {0.1, 0.1}};
    const uint64_t thr_window = 2000;  // the {1.0,1.0} phase measures throughput
    uint64_t thr_pops[N] = {};
    bool thr_done = false;

    for (uint64_t c = 0; c < cycles + thr_window; c++) {
        bool thr_phase = c >= cycles;  // final window: always valid, always ready
        const double* ph = phases[(c / 997) % 5];
        double p_in = thr_phase ? 1.0 : ph[0], p_out = thr_phase ? 1.0 : ph[1];
        std::uniform_real_distribution<double> u(0, 1);
        // Drive inputs (clk low).
        for (int i = 0; i < N; i++) {
            Side& s = side[i];
            uint32_t mask = kInsts[i].width == 32 ? 0xffffffffu : ((1u << kInsts[i].width) - 1);
            if (!s.held_valid && u(rng) < p_in) {
                s.held_valid = true;
                s.held_data = (uint32_t(rng()) ^ s.next++) & mask;
            }
            set_bit(tb.top->in_valid, i, s.held_valid);
            tb.top->in_data[i] = s.held_valid ? s.held_data : (uint32_t(rng()) & mask);
            set_bit(tb.top->out_ready, i, u(rng) < p_out);
        }
        bool en = thr_phase || u(rng) < 0.7;
        tb.top->sp_en = en;
        uint32_t sp_in = uint32_t(rng());
        uint8_t sp_v = rng() & 3;
        tb.top->sp_in_valid = sp_v;
        tb.top->sp_in_data = sp_in;
        tb.top->eval();
        // Observe and check (before the edge).
        for (int i = 0; i < N; i++) {
            const Inst& k = kInsts[i];
            Side& s = side[i];
            bool iv = bit(tb.top->in_valid, i), ir = bit(tb.top->in_ready, i);
            bool ov = bit(tb.top->out_valid, i), orr = bit(tb.top->out_ready, i);
            uint32_t od = tb.top->out_data[i];
            size_t sz = s.model.size();
            if (k.depth) {
                long cnt = (tb.top->count[i / 4] >> (8 * (i % 4))) & 0xff;
                // count is registered: it reflects the model before this cycle's handshakes.
                if (cnt != long(sz)) fail(k.name, tb.cyc, "count", cnt, sz);
                if (bit(tb.top->full, i) != (sz == size_t(k.depth))) fail(k.name, tb.cyc, "full", bit(tb.top->full, i), sz == size_t(k.depth));
                if (bit(tb.top->empty, i) != (sz == 0)) fail(k.name, tb.cyc, "empty", bit(tb.top->empty, i), sz == 0);
            }
            if (k.exact_ready && ir != (sz < size_t(k.cap))) fail(k.name, tb.cyc, "in_ready", ir, sz < size_t(k.cap));
            if (ov && sz == 0) fail(k.name, tb.cyc, "out_valid with nothing pushed", 1, 0);
            if (s.prev_out_stall) {
                if (!ov) fail(k.name, tb.cyc, "out_valid dropped while stalled", 0, 1);
                else if (od != s.prev_out_data) fail(k.name, tb.cyc, "out_data changed while stalled", od, s.prev_out_data);
            }
            if (ov && orr) {
                if (sz == 0) {
                } else {
                    if (od != s.model.front()) fail(k.name, tb.cyc, "out_data (order/loss/duplication)", od, s.model.front());
                    s.model.pop_front();
                }
                s.pops++;
                if (thr_phase) thr_pops[i]++;
            }
            s.prev_out_stall = ov && !orr;
            s.prev_out_data = od;
            if (iv && ir) {
                s.model.push_back(s.held_data);
                s.held_valid = false;
                s.pushes++;
            }
            if (s.model.size() > size_t(k.cap)) fail(k.name, tb.cyc, "holds more than its capacity", s.model.size(), k.cap);
        }
        // Stall pipes.
        for (int p = 0; p < 2; p++) {
            auto& m = sp[p];
            bool ov = bit(tb.top->sp_out_valid, p);
            uint16_t od = uint16_t(tb.top->sp_out_data >> (16 * p));
            auto last = m[sp_depth[p] - 1];
            if (ov != last.first) fail(p ? "stall_pipe D4" : "stall_pipe D1", tb.cyc, "out_valid", ov, last.first);
            else if (ov && od != last.second) fail(p ? "stall_pipe D4" : "stall_pipe D1", tb.cyc, "out_data", od, last.second);
            if (en) {
                for (int j = sp_depth[p] - 1; j > 0; j--) m[j] = m[j - 1];
                m[0] = {bool((sp_v >> p) & 1), uint16_t(sp_in >> (16 * p))};
            }
        }
        tb.tick();
        (void)thr_done;
    }
    // Throughput: with both sides always ready, every instance must pop one item per
    // cycle once filled.
    for (int i = 0; i < N; i++) {
        uint64_t want = thr_window - 2 * uint64_t(kInsts[i].latency) - uint64_t(kInsts[i].cap) - 2;
        // Documented exceptions: a depth-1 register FIFO and a depth-2 RAM FIFO (its
        // 3-cycle loop needs 3 items in flight) run at half rate.
        if (kInsts[i].half_rate) want = thr_window / 2 - 2;
        if (thr_pops[i] < want) fail(kInsts[i].name, tb.cyc, "throughput: pops in the always-ready window", thr_pops[i], want);
    }
    // Drain: everything pushed must come out within a bounded time.
    tb.top->in_valid = 0;
    tb.top->out_ready = (1u << N) - 1;
    for (int t = 0; t < 400; t++) {
        tb.top->eval();
        for (int i = 0; i < N; i++) {
            Side& s = side[i];
            if (bit(tb.top->out_valid, i)) {
                uint32_t od = tb.top->out_data[i];
                if (s.model.empty()) fail(kInsts[i].name, tb.cyc, "extra item while draining", od, 0);
                else {
                    if (od != s.model.front()) fail(kInsts[i].name, tb.cyc, "drain out_data", od, s.model.front());
                    s.model.pop_front();
                }
            }
        }
        tb.tick();
    }
    uint64_t total = 0;
    for (int i = 0; i < N; i++) {
        if (!side[i].model.empty()) fail(kInsts[i].name, tb.cyc, "items lost (left after drain)", side[i].model.size(), 0);
        total += side[i].pops;
    }
    if (errors) {
        std::printf("FAIL errors=%d\n", errors);
        return 1;
    }
    std::printf("PASS cycles=%llu items=%llu\n", (unsigned long long)tb.cyc, (unsigned long long)total);
    return 0;
}
