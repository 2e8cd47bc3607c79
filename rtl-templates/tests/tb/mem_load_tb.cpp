// mem_load_tb: drives ohls_mem_load (TB_DATA_WIDTH-bit bus, TB_ELEM_BYTES-byte elements,
// both compile-time defines, 256 and 4 by default) with the requests listed in a file
// (one hex byte address a line, written by tests/mem_units.rs), with random gaps on the
// request side and random back-pressure on the response side, against an AXI4 read slave
// that stalls AR and R at random, answers after a random latency and checks the burst
// rules (INCR, full-width size, length <= MAX_BURST, no 4 KiB crossing, outstanding <=
// MAX_OUTSTANDING) and which beats are read: with STREAM = 0 only beats holding bytes of
// requests accepted so far, with STREAM = 1 no beat at or past STREAM_END unless such a
// request's bytes lie in it. Memory byte a holds mem_byte(a) (the Rust model's).
// Prints each answered element as its bytes in address order ("R <hex>"), each burst
// ("A <addr> <beats>") and "DONE <cycles> <bursts> <beats>", or the rule broken, and
// exits 1 on any mismatch.
// Usage: sim REQFILE SEED STALL% MAX_BURST MAX_OUTSTANDING STREAM_END FLUSH% [STREAM]
#include "Vohls_mem_load.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <unordered_set>
#include <vector>

#ifndef TB_DATA_WIDTH
#define TB_DATA_WIDTH 256
#endif
#ifndef TB_ELEM_BYTES
#define TB_ELEM_BYTES 4
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
bool chance(int percent) { return int(rng() % 100) < percent; }
uint8_t mem_byte(uint32_t a) { return uint8_t((a ^ (a >> 7) ^ (a >> 13)) * 0x9du + 0x31u); }
constexpr int B = TB_DATA_WIDTH / 8;
constexpr int E = TB_ELEM_BYTES;
struct Burst {
    uint32_t addr;
    int beats, idx;
    uint64_t ready_at;
};

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
    if (argc < 8) {
        std::printf("usage: sim REQFILE SEED STALL MAX_BURST MAX_OUT STREAM_END FLUSH [STREAM]\n");
        return 2;
    }
    std::vector<uint32_t> reqs;
    if (FILE* f = std::fopen(argv[1], "r")) {
        unsigned v;
        while (std::fscanf(f, "%x", &v) == 1) reqs.push_back(v);
        std::fclose(f);
    } else {
        std::printf("cannot read %s\n", argv[1]);
        return 2;
    }
    rng.seed(std::strtoull(argv[2], nullptr, 10));
    int stall = std::atoi(argv[3]);
    int max_burst = std::atoi(argv[4]);
    int max_out = std::atoi(argv[5]);
    uint32_t stream_end = uint32_t(std::strtoul(argv[6], nullptr, 16));
    int flush_pct = std::atoi(argv[7]);
    bool stream = argc < 9 || std::atoi(argv[8]) != 0;

    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vohls_mem_load>(ctx.get());
    top->clk = 0;
    top->rst = 1;
    for (int i = 0; i < 4; i++) {
        top->clk = 1; top->eval(); top->clk = 0; top->eval();
    }
    top->rst = 0;

    size_t next_req = 0, answered = 0;
    bool req_hold = false;
    std::deque<Burst> ar_q;
    std::unordered_set<uint32_t> asked;           // beats holding bytes of accepted requests
    bool r_presenting = false;
    uint64_t bursts = 0, beats = 0;
    uint64_t limit = 200000 + reqs.size() * 200;
    uint64_t idle_since = 0;
    uint8_t bytes[B > E ? B : E];
    for (now = 0; now < limit; now++) {
        // Drive inputs for this cycle.
        if (!req_hold && next_req < reqs.size() && !chance(stall)) req_hold = true;
        top->req_valid = req_hold;
        top->req_addr = req_hold ? reqs[next_req] : 0;
        top->resp_ready = !chance(stall);
        top->stream_end = stream_end;
        top->flush = chance(flush_pct);
        top->m_arready = !chance(stall);
        if (!r_presenting && !ar_q.empty() && ar_q.front().ready_at <= now && !chance(stall)) {
            Burst& b = ar_q.front();
            uint32_t a = b.addr + uint32_t(b.idx * B);
            for (int i = 0; i < B; i++) bytes[i] = mem_byte(a + uint32_t(i));
            put_bytes(top->m_rdata, bytes, B);
            top->m_rlast = b.idx == b.beats - 1;
            top->m_rresp = 0;
            top->m_rid = 0;
            r_presenting = true;
        }
        top->m_rvalid = r_presenting;
        top->eval();
        // Sample the handshakes before the edge.
        bool req_fire = top->req_valid && top->req_ready;
        bool resp_fire = top->resp_valid && top->resp_ready;
        bool ar_fire = top->m_arvalid && top->m_arready;
        bool r_fire = top->m_rvalid && top->m_rready;
        uint8_t resp[E];
        get_bytes(top->resp_data, resp, E);
        uint32_t araddr = top->m_araddr;
        int arbeats = top->m_arlen + 1;
        CHECK(!top->m_rvalid || top->m_rready, "RREADY low while a beat is offered");
        if (req_fire) {
            uint32_t a = reqs[next_req];
            for (uint32_t ba = a / B * B; ba < a + E; ba += B) asked.insert(ba);
        }
        if (ar_fire) {
            CHECK(top->m_arburst == 1, "AR burst type %d", top->m_arburst);
            CHECK((1 << top->m_arsize) == B, "ARSIZE %d", top->m_arsize);
            CHECK(arbeats <= max_burst, "AR length %d > %d", arbeats, max_burst);
            CHECK(araddr % B == 0, "AR address 0x%x not beat aligned", araddr);
            CHECK((araddr % 4096) + uint32_t(arbeats * B) <= 4096, "AR 0x%x x%d crosses 4 KiB",
                  araddr, arbeats);
            for (int i = 0; i < arbeats; i++) {
                uint32_t ba = araddr + uint32_t(i * B);
                if (!stream)
                    CHECK(asked.count(ba), "STREAM=0 reads beat 0x%x nobody asked for", ba);
                else if (ba >= stream_end)
                    CHECK(asked.count(ba), "reads beat 0x%x at or past stream_end 0x%x", ba,
                          stream_end);
            }
            ar_q.push_back({araddr, arbeats, 0, now + 5 + rng() % 36});
            CHECK(int(ar_q.size()) <= max_out, "%zu reads outstanding > %d", ar_q.size(), max_out);
            std::printf("A %x %d\n", araddr, arbeats);
            bursts++;
            beats += uint64_t(arbeats);
        }
        top->clk = 1; top->eval(); top->clk = 0; top->eval();
        if (req_fire) { next_req++; req_hold = false; }
        if (resp_fire) {
            std::printf("R ");
            for (int i = 0; i < E; i++) std::printf("%02x", resp[i]);
            std::printf("\n");
            answered++;
        }
        if (r_fire) {
            r_presenting = false;
            Burst& b = ar_q.front();
            if (++b.idx == b.beats) ar_q.pop_front();
        }
        if (answered == reqs.size() && next_req == reqs.size()) {
            if (!top->idle) idle_since = now + 1;
            else if (now >= idle_since + 2 && ar_q.empty() && !r_presenting) break;
        }
    }
    CHECK(answered == reqs.size(), "%zu of %zu requests answered", answered, reqs.size());
    CHECK(!top->err, "err set");
    if (errors) return 1;
    std::printf("DONE %llu %llu %llu\n", (unsigned long long)now, (unsigned long long)bursts,
                (unsigned long long)beats);
    return 0;
}
