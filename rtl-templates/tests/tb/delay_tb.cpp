// delay_tb: drives every line of tb_delay with random values and a random enable pattern
// (per line, a stall probability that changes between phases, resets in between) and
// compares the output every cycle with a reference shift register of DEPTH registers
// sharing that enable: equal once DEPTH enabled edges have passed since the reset, and
// held while the enable is low.
// Usage: sim SEED CYCLES. Prints "PASS ..." or the first mismatches and exits 1.
#include "Vtb_delay.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

namespace {

struct Line {
    const char* name;
    int width;
    int depth;
    std::vector<uint64_t> regs;  // the reference chain, regs[depth - 1] is the output
    uint64_t filled = 0;         // enabled edges since reset (saturating at depth)
    uint64_t checked = 0;
    uint64_t mask() const { return width == 64 ? ~0ull : (1ull << width) - 1; }
    void reset() { filled = 0; }
    void edge(uint64_t in) {
        for (int i = depth - 1; i > 0; i--) regs[i] = regs[i - 1];
        regs[0] = in & mask();
        if (filled < uint64_t(depth)) filled++;
    }
};

int errors = 0;

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s SEED CYCLES\n", argv[0]);
        return 2;
    }
    std::mt19937_64 rng(std::strtoull(argv[1], nullptr, 10));
    uint64_t cycles = std::strtoull(argv[2], nullptr, 10);
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtb_delay>(ctx.get());
    Line lines[4] = {{"W32 D2", 32, 2, {}}, {"W13 D37", 13, 37, {}}, {"W64 D240", 64, 240, {}},
                     {"W1 D16", 1, 16, {}}};
    for (auto& l : lines) l.regs.assign(l.depth, 0);
    int stall_pct[4] = {0, 0, 0, 0};
    auto step = [&]() {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    };
    top->rst = 1;
    step();
    step();
    top->rst = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        if (c % 5000 == 0)
            for (int i = 0; i < 4; i++) stall_pct[i] = int(rng() % 4) * 30;  // 0, 30, 60, 90
        bool rst = c % 20000 == 19999;
        uint8_t en = 0;
        for (int i = 0; i < 4; i++)
            if (int(rng() % 100) >= stall_pct[i]) en |= uint8_t(1u << i);
        uint64_t in[4] = {rng(), rng(), rng(), rng()};
        top->rst = rst;
        top->en = en;
        top->in0 = uint32_t(in[0]);
        top->in1 = uint16_t(in[1] & 0x1fff);
        top->in2 = in[2];
        top->in3 = uint8_t(in[3] & 1);
        step();
        for (int i = 0; i < 4; i++) {
            Line& l = lines[i];
            if (rst)
                l.reset();
            else if ((en >> i) & 1)
                l.edge(in[i]);
        }
        uint64_t got[4] = {top->out0, top->out1, top->out2, top->out3};
        for (int i = 0; i < 4; i++) {
            Line& l = lines[i];
            if (l.filled < uint64_t(l.depth)) continue;
            l.checked++;
            uint64_t want = l.regs[l.depth - 1];
            if (got[i] != want) {
                if (errors < 10)
                    std::printf("MISMATCH %s cycle %llu: got 0x%llx want 0x%llx\n", l.name,
                                (unsigned long long)c, (unsigned long long)got[i],
                                (unsigned long long)want);
                errors++;
            }
        }
    }
    if (errors) {
        std::printf("FAIL %d mismatches\n", errors);
        return 1;
    }
    std::printf("PASS");
    for (auto& l : lines) std::printf(" %s:%llu", l.name, (unsigned long long)l.checked);
    std::printf("\n");
    return 0;
}
