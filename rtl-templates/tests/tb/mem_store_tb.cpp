// mem_store_tb: drives ohls_mem_store (256-bit bus, 4-byte elements) with the stores
// listed in a file ("<hex addr> <hex value>" a line, written by tests/mem_units.rs),
// with random gaps, against an AXI4 write slave that stalls AW, W and B at random,
// answers after a random latency and checks the burst rules (INCR, full-width size,
// length <= MAX_BURST, no 4 KiB crossing, WLAST on each burst's last beat only,
// outstanding <= MAX_OUTSTANDING). Memory byte a starts as mem_byte(a) (the Rust
// model's). When every store is sent it waits for idle and checks that acked counts
// them all, then prints every byte that differs from its start value ("M <addr> <byte>"),
// each burst ("A <addr> <beats>") and "DONE <cycles> <bursts> <beats> <full beats>", and
// exits 1 on any mismatch.
// Usage: sim STOREFILE SEED STALL% MAX_BURST MAX_OUTSTANDING FLUSH%
#include "Vohls_mem_store.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace {
int errors = 0;
uint64_t now = 0;
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            if (errors < 10) {                                                 \
                std::printf("MISMATCH cycle %llu: ", (unsigned long long)now); \
                std::printf(__VA_ARGS__);                                      \
                std::printf("\n");                                             \
            }                                                                  \
            errors++;                                                          \
        }                                                                      \
    } while (0)
std::mt19937_64 rng;
bool chance(int percent) { return int(rng() % 100) < percent; }
uint8_t mem_byte(uint32_t a) { return uint8_t((a ^ (a >> 7) ^ (a >> 13)) * 0x9du + 0x31u); }
constexpr int B = 32;
constexpr uint32_t MEM = 1u << 20;
struct Burst {
    uint32_t addr;
    int beats, idx;
};
}  // namespace

int main(int argc, char** argv) {
    if (argc < 7) {
        std::printf("usage: sim STOREFILE SEED STALL MAX_BURST MAX_OUT FLUSH\n");
        return 2;
    }
    std::vector<std::pair<uint32_t, uint32_t>> stores;
    if (FILE* f = std::fopen(argv[1], "r")) {
        unsigned a, v;
        while (std::fscanf(f, "%x %x", &a, &v) == 2) stores.push_back({a, v});
        std::fclose(f);
    } else {
        std::printf("cannot read %s\n", argv[1]);
        return 2;
    }
    rng.seed(std::strtoull(argv[2], nullptr, 10));
    int stall = std::atoi(argv[3]);
    int max_burst = std::atoi(argv[4]);
    int max_out = std::atoi(argv[5]);
    int flush_pct = std::atoi(argv[6]);
    std::vector<uint8_t> mem(MEM);
    for (uint32_t a = 0; a < MEM; a++) mem[a] = mem_byte(a);

    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vohls_mem_store>(ctx.get());
    top->clk = 0;
    top->rst = 1;
    for (int i = 0; i < 4; i++) {
        top->clk = 1; top->eval(); top->clk = 0; top->eval();
    }
    top->rst = 0;

    size_t next = 0;
    bool hold = false;
    std::deque<Burst> aw_q;                       // accepted AWs whose W beats are due
    struct WBeat {
        std::vector<uint8_t> data;
        std::vector<bool> strb;
        bool last;
    };
    std::deque<WBeat> w_buf;                      // W beats not matched with an AW yet
    std::deque<uint64_t> b_q;                     // bursts written, B due at that time
    int open = 0;                                 // AWs accepted whose B was not sent
    bool b_presenting = false;
    uint64_t bursts = 0, beats = 0, full = 0;
    uint64_t limit = 200000 + stores.size() * 200;
    uint64_t idle_since = 0;
    bool done = false;
    for (now = 0; now < limit; now++) {
        if (!hold && next < stores.size() && !chance(stall)) hold = true;
        top->req_valid = hold;
        top->req_addr = hold ? stores[next].first : 0;
        top->req_data = hold ? stores[next].second : 0;
        top->flush = chance(flush_pct);
        top->m_awready = !chance(stall);
        top->m_wready = !chance(stall);
        if (!b_presenting && !b_q.empty() && b_q.front() <= now && !chance(stall)) {
            b_presenting = true;
            top->m_bresp = 0;
            top->m_bid = 0;
        }
        top->m_bvalid = b_presenting;
        top->eval();
        bool req_fire = top->req_valid && top->req_ready;
        bool aw_fire = top->m_awvalid && top->m_awready;
        bool w_fire = top->m_wvalid && top->m_wready;
        bool b_fire = top->m_bvalid && top->m_bready;
        CHECK(!top->m_bvalid || top->m_bready, "BREADY low while a response is offered");
        if (aw_fire) {
            uint32_t a = top->m_awaddr;
            int n = top->m_awlen + 1;
            CHECK(top->m_awburst == 1, "AW burst type %d", top->m_awburst);
            CHECK((1 << top->m_awsize) == B, "AWSIZE %d", top->m_awsize);
            CHECK(n <= max_burst, "AW length %d > %d", n, max_burst);
            CHECK(a % B == 0, "AW address 0x%x not beat aligned", a);
            CHECK((a % 4096) + uint32_t(n * B) <= 4096, "AW 0x%x x%d crosses 4 KiB", a, n);
            aw_q.push_back({a, n, 0});
            open++;
            CHECK(open <= max_out, "%d writes outstanding > %d", open, max_out);
            std::printf("A %x %d\n", a, n);
            bursts++;
        }
        if (w_fire) {
            // AXI4 lets W beats come before their AW: keep them until it arrives.
            WBeat w{std::vector<uint8_t>(B), std::vector<bool>(B), bool(top->m_wlast)};
            for (int i = 0; i < B; i++) {
                w.strb[i] = (top->m_wstrb >> i) & 1;
                w.data[i] = uint8_t(top->m_wdata[i / 4] >> (8 * (i % 4)));
            }
            w_buf.push_back(w);
            CHECK(w_buf.size() <= 4096, "W beats run far ahead of AW");
        }
        while (!w_buf.empty() && !aw_q.empty()) {
            WBeat& w = w_buf.front();
            Burst& b = aw_q.front();
            uint32_t a = b.addr + uint32_t(b.idx * B);
            bool all = true;
            for (int i = 0; i < B; i++) {
                all = all && w.strb[i];
                if (w.strb[i] && a + i < MEM) mem[a + i] = w.data[i];
            }
            full += all;
            beats++;
            bool last = b.idx == b.beats - 1;
            CHECK(w.last == last, "WLAST %d on beat %d of %d", w.last, b.idx, b.beats);
            w_buf.pop_front();
            if (++b.idx == b.beats) {
                aw_q.pop_front();
                b_q.push_back(now + 3 + rng() % 20);
            }
        }
        top->clk = 1; top->eval(); top->clk = 0; top->eval();
        if (req_fire) { next++; hold = false; }
        if (b_fire) {
            b_presenting = false;
            b_q.pop_front();
            open--;
        }
        if (next == stores.size()) {
            if (!top->idle) idle_since = now + 1;
            else if (now >= idle_since + 2) { done = true; break; }
        }
    }
    CHECK(done, "not idle after every store (%zu of %zu sent)", next, stores.size());
    CHECK(top->acked == uint32_t(stores.size()), "acked %u, %zu stores", top->acked, stores.size());
    CHECK(aw_q.empty() && w_buf.empty() && b_q.empty() && open == 0, "idle with writes in flight");
    CHECK(!top->err, "err set");
    if (errors) return 1;
    for (uint32_t a = 0; a < MEM; a++)
        if (mem[a] != mem_byte(a)) std::printf("M %x %x\n", a, mem[a]);
    std::printf("DONE %llu %llu %llu %llu\n", (unsigned long long)now, (unsigned long long)bursts,
                (unsigned long long)beats, (unsigned long long)full);
    return 0;
}
