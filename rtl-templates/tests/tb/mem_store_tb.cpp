// mem_store_tb: drives ohls_mem_store (TB_DATA_WIDTH-bit bus, TB_ELEM_BYTES-byte elements,
// TB_STRB the unit's STRB, all compile-time defines, 256, 4 and 0 by default) with the
// stores listed in a file ("<hex addr> <value bytes in address order, hex> [<hex byte
// mask>]" a line, written by tests/mem_units.rs; no mask means every byte; a mask needs
// TB_STRB=1, and bit i of it is req_strb[i]), with random gaps, against an AXI4 write
// slave that stalls AW, W and B at random, answers after a random latency and checks the
// burst rules (INCR, full-width size, length <= MAX_BURST, no 4 KiB crossing, WLAST on
// each burst's last beat only, outstanding <= MAX_OUTSTANDING), that no byte is strobed
// that no store accepted so far covers (with masks: has written), and that acked never
// counts a store before every byte it writes has been written (after its acceptance) by
// a burst whose B came back. With TB_STRB=0 req_strb carries random bits, which the unit
// must ignore. Memory byte a starts as mem_byte(a) (the Rust model's). When every store
// is sent it waits for idle and checks that acked counts them all, then prints every
// byte that differs from its start value ("M <addr> <byte>"), each burst ("A <addr>
// <beats>") and "DONE <cycles> <bursts> <beats> <full beats> <last accept cycle> <beats
// with no strobe>", and exits 1 on any mismatch.
// Usage: sim STOREFILE SEED STALL% MAX_BURST MAX_OUTSTANDING FLUSH%
#include "Vohls_mem_store.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#ifndef TB_DATA_WIDTH
#define TB_DATA_WIDTH 256
#endif
#ifndef TB_ELEM_BYTES
#define TB_ELEM_BYTES 4
#endif
#ifndef TB_STRB
#define TB_STRB 0
#endif

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
std::mt19937_64 junk_rng;  // req_strb bits to be ignored (apart, so rng's draws are as before)
bool chance(int percent) { return int(rng() % 100) < percent; }
uint8_t mem_byte(uint32_t a) { return uint8_t((a ^ (a >> 7) ^ (a >> 13)) * 0x9du + 0x31u); }
constexpr int B = TB_DATA_WIDTH / 8;
constexpr int E = TB_ELEM_BYTES;
constexpr uint32_t MEM = 1u << 20;
struct Burst {
    uint32_t addr;
    int beats, idx;
    std::vector<std::pair<uint32_t, uint64_t>> written;  // bytes its W beats strobed, when
};
struct Store {
    uint32_t addr;
    uint8_t data[E];
    uint64_t mask;  // bit i: byte i is written
};
constexpr uint64_t ALL = E >= 64 ? ~uint64_t(0) : (uint64_t(1) << E) - 1;

// Ports up to 64 bits are integers, wider ones VlWide word arrays (little-endian words).
template <typename T>
void put_bytes(T& port, const uint8_t* b, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= uint64_t(b[i]) << (8 * i);
    port = T(v);
}
template <std::size_t W>
void put_bytes(VlWide<W>& port, const uint8_t* b, int n) {
    for (std::size_t w = 0; w < W; w++) {
        uint32_t v = 0;
        for (int j = 0; j < 4 && int(4 * w) + j < n; j++) v |= uint32_t(b[4 * w + j]) << (8 * j);
        port[w] = v;
    }
}
template <typename T>
void get_bytes(const T& port, uint8_t* b, int n) {
    uint64_t v = port;
    for (int i = 0; i < n; i++) b[i] = uint8_t(v >> (8 * i));
}
template <std::size_t W>
void get_bytes(const VlWide<W>& port, uint8_t* b, int n) {
    for (int i = 0; i < n; i++) b[i] = uint8_t(port[i / 4] >> (8 * (i % 4)));
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 7) {
        std::printf("usage: sim STOREFILE SEED STALL MAX_BURST MAX_OUT FLUSH\n");
        return 2;
    }
    std::vector<Store> stores;
    if (FILE* f = std::fopen(argv[1], "r")) {
        unsigned a;
        char hex[65];
        char line[256];
        while (std::fgets(line, sizeof line, f)) {
            unsigned long long m = ALL;
            int got = std::sscanf(line, "%x %64s %llx", &a, hex, &m);
            if (got < 2) continue;
            Store s{a, {}, uint64_t(m)};
            if (std::strlen(hex) != size_t(2 * E)) {
                std::printf("store at %x: %s is not %d bytes\n", a, hex, E);
                return 2;
            }
            if ((s.mask & ~ALL) != 0 || (!TB_STRB && s.mask != ALL)) {
                std::printf("store at %x: mask %llx does not fit a unit with STRB=%d\n", a, m,
                            TB_STRB);
                return 2;
            }
            for (int i = 0; i < E; i++) {
                unsigned v;
                std::sscanf(hex + 2 * i, "%2x", &v);
                s.data[i] = uint8_t(v);
            }
            stores.push_back(s);
        }
        std::fclose(f);
    } else {
        std::printf("cannot read %s\n", argv[1]);
        return 2;
    }
    rng.seed(std::strtoull(argv[2], nullptr, 10));
    junk_rng.seed(std::strtoull(argv[2], nullptr, 10) + 1);
    int stall = std::atoi(argv[3]);
    int max_burst = std::atoi(argv[4]);
    int max_out = std::atoi(argv[5]);
    int flush_pct = std::atoi(argv[6]);
    std::vector<uint8_t> mem(MEM);
    for (uint32_t a = 0; a < MEM; a++) mem[a] = mem_byte(a);
    std::vector<bool> stored(MEM);                // covered by a store accepted so far
    std::vector<int64_t> acked_write(MEM, -1);    // W cycle of the last write whose B came back
    std::vector<uint64_t> accepted_at;            // per store

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
        uint64_t at;
    };
    std::deque<WBeat> w_buf;                      // W beats not matched with an AW yet
    std::deque<std::pair<uint64_t, std::vector<std::pair<uint32_t, uint64_t>>>> b_q;  // B due, writes
    int open = 0;                                 // AWs accepted whose B was not sent
    bool b_presenting = false;
    uint64_t bursts = 0, beats = 0, full = 0, empty = 0, last_accept = 0;
    uint64_t limit = 200000 + stores.size() * 200;
    uint64_t idle_since = 0;
    uint32_t acked_seen = 0;
    bool done = false;
    uint8_t zero[E] = {};
    for (now = 0; now < limit; now++) {
        if (!hold && next < stores.size() && !chance(stall)) hold = true;
        top->req_valid = hold;
        top->req_addr = hold ? stores[next].addr : 0;
        put_bytes(top->req_data, hold ? stores[next].data : zero, E);
        // The mask, or (STRB=0, or no store offered) bits the unit must not heed.
        uint64_t junk = junk_rng();
        top->req_strb = (TB_STRB && hold ? stores[next].mask : junk) & ALL;
        top->flush = chance(flush_pct);
        top->m_awready = !chance(stall);
        top->m_wready = !chance(stall);
        if (!b_presenting && !b_q.empty() && b_q.front().first <= now && !chance(stall)) {
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
        if (req_fire) {
            for (int i = 0; i < E; i++)
                if (((stores[next].mask >> i) & 1) && stores[next].addr + uint32_t(i) < MEM)
                    stored[stores[next].addr + uint32_t(i)] = true;
            accepted_at.push_back(now);
            last_accept = now;
        }
        if (aw_fire) {
            uint32_t a = top->m_awaddr;
            int n = top->m_awlen + 1;
            CHECK(top->m_awburst == 1, "AW burst type %d", top->m_awburst);
            CHECK((1 << top->m_awsize) == B, "AWSIZE %d", top->m_awsize);
            CHECK(n <= max_burst, "AW length %d > %d", n, max_burst);
            CHECK(a % B == 0, "AW address 0x%x not beat aligned", a);
            CHECK((a % 4096) + uint32_t(n * B) <= 4096, "AW 0x%x x%d crosses 4 KiB", a, n);
            aw_q.push_back({a, n, 0, {}});
            open++;
            CHECK(open <= max_out, "%d writes outstanding > %d", open, max_out);
            std::printf("A %x %d\n", a, n);
            bursts++;
        }
        if (w_fire) {
            // AXI4 lets W beats come before their AW: keep them until it arrives.
            WBeat w{std::vector<uint8_t>(B), std::vector<bool>(B), bool(top->m_wlast), now};
            uint8_t strb[(B + 7) / 8];
            get_bytes(top->m_wstrb, strb, (B + 7) / 8);
            get_bytes(top->m_wdata, w.data.data(), B);
            for (int i = 0; i < B; i++) w.strb[i] = (strb[i / 8] >> (i % 8)) & 1;
            w_buf.push_back(w);
            CHECK(w_buf.size() <= 4096, "W beats run far ahead of AW");
        }
        while (!w_buf.empty() && !aw_q.empty()) {
            WBeat& w = w_buf.front();
            Burst& b = aw_q.front();
            uint32_t a = b.addr + uint32_t(b.idx * B);
            bool all = true, none = true;
            for (int i = 0; i < B; i++) {
                all = all && w.strb[i];
                none = none && !w.strb[i];
                if (w.strb[i] && a + i < MEM) {
                    CHECK(stored[a + i], "byte 0x%x strobed, no store covers it", a + i);
                    mem[a + i] = w.data[i];
                    b.written.push_back({a + uint32_t(i), w.at});
                }
            }
            full += all;
            empty += none;
            beats++;
            bool last = b.idx == b.beats - 1;
            CHECK(w.last == last, "WLAST %d on beat %d of %d", w.last, b.idx, b.beats);
            w_buf.pop_front();
            if (++b.idx == b.beats) {
                b_q.push_back({now + 3 + rng() % 20, std::move(b.written)});
                aw_q.pop_front();
            }
        }
        top->clk = 1; top->eval(); top->clk = 0; top->eval();
        if (req_fire) { next++; hold = false; }
        if (b_fire) {
            for (auto& [a, at] : b_q.front().second) acked_write[a] = int64_t(at);
            b_presenting = false;
            b_q.pop_front();
            open--;
        }
        // Each store acked now must be wholly written, after it was accepted.
        uint32_t acked = top->acked;
        CHECK(acked - acked_seen <= accepted_at.size() - acked_seen, "acked %u, %zu accepted",
              acked, accepted_at.size());
        for (; acked_seen != acked && acked_seen < accepted_at.size(); acked_seen++) {
            const Store& s = stores[acked_seen];
            for (int i = 0; i < E; i++) {
                uint32_t a = s.addr + uint32_t(i);
                if (((s.mask >> i) & 1) && a < MEM)
                    CHECK(acked_write[a] > int64_t(accepted_at[acked_seen]),
                          "store %u (0x%x) acked before byte 0x%x was written", acked_seen,
                          s.addr, a);
            }
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
    std::printf("DONE %llu %llu %llu %llu %llu %llu\n", (unsigned long long)now,
                (unsigned long long)bursts, (unsigned long long)beats, (unsigned long long)full,
                (unsigned long long)last_accept, (unsigned long long)empty);
    return 0;
}
