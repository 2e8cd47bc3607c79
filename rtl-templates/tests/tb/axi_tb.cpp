// axi_tb: drives tb_axi. The AXI4 read/write masters run random commands (sub-word,
// unaligned, multi-page) against a slave memory model that stalls every channel at
// random and checks the AXI burst rules (INCR, size, length <= MAX_BURST, no 4 KiB
// crossing, WLAST position, exact strobes, outstanding limit); the read stream and the
// final memory are compared with a byte model. The AXI4-Lite CSR block is driven by a
// randomised master (AW/W order and delays, unmapped addresses) against a register model
// and a fake kernel that answers start with done.
// Usage: sim SEED COMMANDS. Prints "PASS ..." or the first mismatches and exits 1.
#include "Vtb_axi.h"
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
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            if (errors < 15) {                                                             \
                std::printf("MISMATCH cycle %llu: ", (unsigned long long)now);             \
                std::printf(__VA_ARGS__);                                                  \
                std::printf("\n");                                                         \
            }                                                                              \
            errors++;                                                                      \
        }                                                                                  \
    } while (0)

std::mt19937_64 rng;
bool chance(int percent) { return int(rng() % 100) < percent; }

// Byte access to data ports of any width.
uint8_t getb(const IData& v, int i) { return uint8_t(v >> (8 * i)); }
uint8_t getb(const QData& v, int i) { return uint8_t(v >> (8 * i)); }
template <std::size_t N> uint8_t getb(const VlWide<N>& v, int i) { return uint8_t(v[i / 4] >> (8 * (i % 4))); }
void setb(IData& v, int i, uint8_t b) { v = (v & ~(IData(0xff) << (8 * i))) | (IData(b) << (8 * i)); }
void setb(QData& v, int i, uint8_t b) { v = (v & ~(QData(0xff) << (8 * i))) | (QData(b) << (8 * i)); }
template <std::size_t N> void setb(VlWide<N>& v, int i, uint8_t b) {
    v[i / 4] = (v[i / 4] & ~(0xffu << (8 * (i % 4)))) | (uint32_t(b) << (8 * (i % 4)));
}
bool getbit(const CData& v, int i) { return (v >> i) & 1; }
bool getbit(const IData& v, int i) { return (v >> i) & 1; }
void setbit(CData& v, int i, bool b) { v = CData((v & ~(1u << i)) | (uint32_t(b) << i)); }
void setbit(IData& v, int i, bool b) { v = (v & ~(1u << i)) | (uint32_t(b) << i); }

constexpr uint32_t MEM = 1 << 16;

struct Word {  // one word of a stream: B bytes, which are meaningful, last flag
    std::vector<uint8_t> b;
    std::vector<bool> m;
    bool last;
};
struct Burst {
    uint32_t addr;
    int beats, idx;
};
struct Beat {  // an expected W beat
    uint32_t addr;
    std::vector<uint8_t> b;
    std::vector<bool> strb;
};
struct Cmd {
    uint32_t addr, len;
};

template <typename DT, typename ST> struct Cfg {
    const char* name;
    int B, max_burst, max_out;
    CData *rc_valid, *rc_ready; IData *rc_addr, *rc_len;
    CData *ro_valid, *ro_ready; DT* ro_data; CData* ro_last;
    CData *arvalid, *arready; IData* araddr; CData *arlen, *arsize, *arburst, *arid;
    CData *rvalid, *rready; DT* rdata; CData *rresp, *rlast, *rid, *rerr, *ridle;
    CData *wc_valid, *wc_ready; IData *wc_addr, *wc_len;
    CData *wi_valid, *wi_ready; DT* wi_data; ST* wi_strb;
    CData *awvalid, *awready; IData* awaddr; CData *awlen, *awsize, *awburst, *awid;
    CData *wvalid, *wready; DT* wdata; ST* wstrb; CData* wlast;
    CData *bvalid, *bready, *bresp, *bid, *werr, *widle;

    std::vector<uint8_t> rmem = std::vector<uint8_t>(MEM), wmem = std::vector<uint8_t>(MEM),
                         wmodel = std::vector<uint8_t>(MEM);
    // read side
    int rcmds_left = 0;
    bool rc_hold = false;
    Cmd rc{};
    std::deque<Word> r_expect;
    std::deque<Burst> ar_q;
    bool r_presenting = false;
    bool ro_stalled = false;
    std::vector<uint8_t> ro_prev;
    bool ro_prev_last = false;
    uint64_t r_words = 0, r_cmds = 0;
    // write side
    int wcmds_left = 0;
    bool wc_hold = false;
    Cmd wc{};
    std::deque<std::pair<std::vector<uint8_t>, std::vector<bool>>> wi_q;
    bool wi_presenting = false;
    std::deque<Beat> w_expect;
    std::deque<Burst> aw_q;
    std::deque<std::pair<uint64_t, bool>> b_q;  // (time ready, error)
    int aw_open = 0;                              // AWs accepted whose B was not sent
    bool b_presenting = false;
    std::deque<std::pair<std::vector<uint8_t>, std::vector<bool>>> w_buf;  // W beats before their AW
    std::vector<bool> w_last_buf;
    uint64_t w_beats = 0, w_cmds = 0;
    int stall;  // percent of cycles each slave channel stalls

    Cmd random_cmd(bool sub_word_only = false) {
        uint32_t len;
        int r = int(rng() % 10);
        if (sub_word_only || r < 3) len = 1u << (rng() % 3);
        else if (r < 6) len = 1 + uint32_t(rng() % (3 * B));
        else if (r < 9) len = 1 + uint32_t(rng() % 2000);
        else len = (rng() % 8 == 0) ? 0 : 3000 + uint32_t(rng() % 6000);
        uint32_t addr;
        if (chance(30)) {  // just below a 4 KiB boundary
            uint32_t page = 1 + uint32_t(rng() % (MEM / 4096 - 4));
            addr = page * 4096 - 1 - uint32_t(rng() % (2 * B + 8));
        } else {
            addr = uint32_t(rng() % (MEM - len - 1));
        }
        if (addr + len >= MEM) addr = MEM - len - 1;
        return {addr, len};
    }

    void drive() {
        // read command producer (valid held until ready)
        if (!rc_hold && rcmds_left > 0 && chance(40)) { rc = random_cmd(); rc_hold = true; }
        *rc_valid = rc_hold;
        *rc_addr = rc.addr;
        *rc_len = rc.len;
        *ro_ready = chance(70);
        *arready = !chance(stall);
        // R: present the next beat, hold it until taken
        if (!r_presenting && !ar_q.empty() && !chance(stall)) {
            Burst& b = ar_q.front();
            uint32_t a = b.addr + uint32_t(b.idx * B);
            for (int i = 0; i < B; i++) setb(*rdata, i, a + i < MEM ? rmem[a + i] : 0);
            *rlast = b.idx == b.beats - 1;
            *rresp = a < MEM ? 0 : 2;
            *rid = 0;
            r_presenting = true;
        }
        *rvalid = r_presenting;
        // write command and data producers
        if (!wc_hold && wcmds_left > 0 && chance(40)) { wc = random_cmd(); wc_hold = true; }
        *wc_valid = wc_hold;
        *wc_addr = wc.addr;
        *wc_len = wc.len;
        if (!wi_presenting && !wi_q.empty() && chance(80)) {
            auto& w = wi_q.front();
            for (int i = 0; i < B; i++) { setb(*wi_data, i, w.first[i]); setbit(*wi_strb, i, w.second[i]); }
            wi_presenting = true;
        }
        *wi_valid = wi_presenting;
        *awready = !chance(stall);
        *wready = !chance(stall);
        if (!b_presenting && !b_q.empty() && b_q.front().first <= now) {
            *bresp = b_q.front().second ? 2 : 0;
            *bid = 0;
            b_presenting = true;
        }
        *bvalid = b_presenting;
    }

    void check_ar() {
        uint32_t a = *araddr;
        int beats = *arlen + 1;
        CHECK(*arburst == 1, "%s AR burst type %d (want INCR)", name, *arburst);
        CHECK((1 << *arsize) == B, "%s ARSIZE %d", name, *arsize);
        CHECK(beats <= max_burst, "%s AR length %d > %d", name, beats, max_burst);
        CHECK(a % B == 0, "%s AR address 0x%x not beat aligned", name, a);
        CHECK((a % 4096) + uint32_t(beats * B) <= 4096, "%s AR 0x%x x%d crosses 4 KiB", name, a, beats);
        ar_q.push_back({a, beats, 0});
        CHECK(int(ar_q.size()) <= max_out, "%s %zu reads outstanding > %d", name, ar_q.size(), max_out);
    }
    void check_aw() {
        uint32_t a = *awaddr;
        int beats = *awlen + 1;
        CHECK(*awburst == 1, "%s AW burst type %d (want INCR)", name, *awburst);
        CHECK((1 << *awsize) == B, "%s AWSIZE %d", name, *awsize);
        CHECK(beats <= max_burst, "%s AW length %d > %d", name, beats, max_burst);
        CHECK(a % B == 0, "%s AW address 0x%x not beat aligned", name, a);
        CHECK((a % 4096) + uint32_t(beats * B) <= 4096, "%s AW 0x%x x%d crosses 4 KiB", name, a, beats);
        aw_q.push_back({a, beats, 0});
        aw_open++;
        CHECK(aw_open <= max_out, "%s %d writes outstanding > %d", name, aw_open, max_out);
    }
    // Matches buffered W beats with accepted AWs, in order.
    void match_w() {
        while (!w_buf.empty() && !aw_q.empty()) {
            auto beat = w_buf.front();
            bool last = w_last_buf.front();
            w_buf.pop_front();
            w_last_buf.erase(w_last_buf.begin());
            Burst& bu = aw_q.front();
            uint32_t a = bu.addr + uint32_t(bu.idx * B);
            CHECK(last == (bu.idx == bu.beats - 1), "%s WLAST %d on beat %d of %d", name, last, bu.idx, bu.beats);
            if (w_expect.empty()) {
                CHECK(false, "%s unexpected W beat at 0x%x", name, a);
            } else {
                Beat& e = w_expect.front();
                CHECK(e.addr == a, "%s W beat address 0x%x, want 0x%x", name, a, e.addr);
                for (int i = 0; i < B; i++) {
                    CHECK(beat.second[i] == e.strb[i], "%s WSTRB byte %d at 0x%x: %d want %d", name, i, a, int(beat.second[i]), int(e.strb[i]));
                    if (e.strb[i]) CHECK(beat.first[i] == e.b[i], "%s WDATA byte at 0x%x: %02x want %02x", name, a + i, beat.first[i], e.b[i]);
                }
                w_expect.pop_front();
            }
            bool bad = a >= MEM;
            for (int i = 0; i < B; i++)
                if (beat.second[i] && a + i < MEM) wmem[a + i] = beat.first[i];
            w_beats++;
            if (++bu.idx == bu.beats) {
                b_q.push_back({now + rng() % 8, bad});
                aw_q.pop_front();
            }
        }
    }

    void on_write_cmd(const Cmd& c) {
        w_cmds++;
        if (c.len == 0) return;
        uint32_t off = c.addr % B, base = c.addr - off;
        uint32_t words = (c.len + B - 1) / B, beats = (off + c.len + B - 1) / B;
        bool masked = chance(25);
        std::vector<uint8_t> stream(words * B);
        std::vector<bool> sstrb(words * B);
        for (uint32_t j = 0; j < words * B; j++) {
            stream[j] = uint8_t(rng());
            sstrb[j] = masked ? chance(60) : true;
        }
        for (uint32_t w = 0; w < words; w++)
            wi_q.push_back({std::vector<uint8_t>(stream.begin() + w * B, stream.begin() + (w + 1) * B),
                            std::vector<bool>(sstrb.begin() + w * B, sstrb.begin() + (w + 1) * B)});
        for (uint32_t k = 0; k < beats; k++) {
            Beat e{base + k * uint32_t(B), std::vector<uint8_t>(B), std::vector<bool>(B)};
            for (int i = 0; i < B; i++) {
                uint32_t a = e.addr + i;
                if (a < c.addr || a >= c.addr + c.len) continue;
                uint32_t j = a - c.addr;
                e.strb[i] = sstrb[j];
                e.b[i] = stream[j];
                if (sstrb[j] && a < MEM) wmodel[a] = stream[j];
            }
            w_expect.push_back(e);
        }
    }
    void on_read_cmd(const Cmd& c) {
        r_cmds++;
        uint32_t words = (c.len + B - 1) / B;
        for (uint32_t w = 0; w < words; w++) {
            Word x{std::vector<uint8_t>(B), std::vector<bool>(B), w == words - 1};
            for (int i = 0; i < B; i++) {
                uint32_t j = w * B + i;
                if (j < c.len) { x.m[i] = true; x.b[i] = c.addr + j < MEM ? rmem[c.addr + j] : 0; }
            }
            r_expect.push_back(x);
        }
    }

    void observe() {
        if (*rc_valid && *rc_ready) { on_read_cmd(rc); rc_hold = false; rcmds_left--; }
        if (*arvalid && *arready) check_ar();
        CHECK(*rready, "%s RREADY low although bursts are only issued with FIFO room", name);
        if (*rvalid && *rready) {
            Burst& b = ar_q.front();
            if (++b.idx == b.beats) ar_q.pop_front();
            r_presenting = false;
        }
        std::vector<uint8_t> od(B);
        for (int i = 0; i < B; i++) od[i] = getb(*ro_data, i);
        if (ro_stalled) {
            CHECK(*ro_valid, "%s read out_valid dropped while stalled", name);
            CHECK(od == ro_prev && bool(*ro_last) == ro_prev_last, "%s read out_data changed while stalled", name);
        }
        if (*ro_valid && *ro_ready) {
            if (r_expect.empty()) {
                CHECK(false, "%s read word with nothing expected", name);
            } else {
                Word& e = r_expect.front();
                for (int i = 0; i < B; i++)
                    if (e.m[i]) CHECK(od[i] == e.b[i], "%s read word %llu byte %d: %02x want %02x", name, (unsigned long long)r_words, i, od[i], e.b[i]);
                CHECK(bool(*ro_last) == e.last, "%s read out_last %d want %d", name, *ro_last, int(e.last));
                r_expect.pop_front();
            }
            r_words++;
        }
        ro_stalled = *ro_valid && !*ro_ready;
        ro_prev = od;
        ro_prev_last = *ro_last;

        if (*wc_valid && *wc_ready) { on_write_cmd(wc); wc_hold = false; wcmds_left--; }
        if (*wi_valid && *wi_ready) { wi_q.pop_front(); wi_presenting = false; }
        if (*awvalid && *awready) check_aw();
        if (*wvalid && *wready) {
            std::vector<uint8_t> d(B);
            std::vector<bool> s(B);
            for (int i = 0; i < B; i++) { d[i] = getb(*wdata, i); s[i] = getbit(*wstrb, i); }
            w_buf.push_back({d, s});
            w_last_buf.push_back(*wlast);
        }
        match_w();
        CHECK(*bready, "%s BREADY low", name);
        if (*bvalid && *bready) { b_q.pop_front(); b_presenting = false; aw_open--; }
    }

    bool done() const {
        return rcmds_left <= 0 && !rc_hold && r_expect.empty() && ar_q.empty() && wcmds_left <= 0 &&
               !wc_hold && wi_q.empty() && aw_q.empty() && b_q.empty() && w_buf.empty() && *ridle && *widle;
    }
    void final_check() {
        CHECK(w_expect.empty(), "%s %zu expected W beats never came", name, w_expect.size());
        size_t bad = 0;
        for (uint32_t a = 0; a < MEM; a++)
            if (wmem[a] != wmodel[a]) {
                if (bad < 4) CHECK(false, "%s memory byte 0x%x: %02x want %02x", name, a, wmem[a], wmodel[a]);
                bad++;
            }
        CHECK(bad == 0, "%s %zu memory bytes differ", name, bad);
    }
};

#define CFG(DT, ST, X, NAME, BYTES, MAXB, MAXO)                                                    \
    Cfg<DT, ST> {                                                                                  \
        NAME, BYTES, MAXB, MAXO, &top->X##_rc_valid, &top->X##_rc_ready, &top->X##_rc_addr,        \
            &top->X##_rc_len, &top->X##_ro_valid, &top->X##_ro_ready, &top->X##_ro_data,           \
            &top->X##_ro_last, &top->X##_arvalid, &top->X##_arready, &top->X##_araddr,             \
            &top->X##_arlen, &top->X##_arsize, &top->X##_arburst, &top->X##_arid,                  \
            &top->X##_rvalid, &top->X##_rready, &top->X##_rdata, &top->X##_rresp,                  \
            &top->X##_rlast, &top->X##_rid, &top->X##_rerr, &top->X##_ridle, &top->X##_wc_valid,   \
            &top->X##_wc_ready, &top->X##_wc_addr, &top->X##_wc_len, &top->X##_wi_valid,           \
            &top->X##_wi_ready, &top->X##_wi_data, &top->X##_wi_strb, &top->X##_awvalid,           \
            &top->X##_awready, &top->X##_awaddr, &top->X##_awlen, &top->X##_awsize,                \
            &top->X##_awburst, &top->X##_awid, &top->X##_wvalid, &top->X##_wready,                 \
            &top->X##_wdata, &top->X##_wstrb, &top->X##_wlast, &top->X##_bvalid,                   \
            &top->X##_bready, &top->X##_bresp, &top->X##_bid, &top->X##_werr, &top->X##_widle      \
    }

// ---- AXI4-Lite CSR ----
struct Csr {
    Vtb_axi* top;
    uint32_t reg_en = 0, irq_st = 0, gsize[3] = {}, lsize[3] = {}, args[8] = {};
    bool busy = false, done = false;
    uint32_t err = 0;
    // write in flight: AW and W parts, when each is offered, and whether each was taken
    bool w_active = false, aw_sent = false, wd_sent = false, b_wait = false;
    uint32_t w_addr = 0, w_data = 0, w_strb = 0;
    uint64_t aw_at = 0, wd_at = 0;
    bool r_active = false, ar_sent = false;
    uint32_t r_addr = 0, r_want = 0, r_resp_want = 0;
    uint64_t kernel_done_at = 0;
    bool kernel_running = false;
    uint64_t writes = 0, reads = 0, slverr = 0, starts = 0, orders[3] = {};

    static bool mapped(uint32_t w) {
        return w <= 9 || w == 14 || w == 15 || (w >= 16 && w < 24) || (w >= 64 && w < 67);
    }
    uint32_t value(uint32_t w) const {
        switch (w) {
        case 1: return (err << 8) | (uint32_t(busy) << 1) | uint32_t(done);
        case 2: return reg_en;
        case 3: return irq_st;
        case 4: case 5: case 6: return gsize[w - 4];
        case 7: case 8: case 9: return lsize[w - 7];
        case 14: return 8;
        case 15: return 0x4F484C53;
        case 64: return ~args[0];
        case 65: return 0xC0FFEE01;
        case 66: return args[2];
        default: return (w >= 16 && w < 24) ? args[w - 16] : 0;
        }
    }
    static uint32_t merge(uint32_t old, uint32_t d, uint32_t s) {
        for (int b = 0; b < 4; b++)
            if (s >> b & 1) old = (old & ~(0xffu << 8 * b)) | (d & (0xffu << 8 * b));
        return old;
    }
    // The register model takes the write when its B response appears.
    void apply(uint32_t w, uint32_t d, uint32_t s, bool start_seen) {
        if (w == 0 && (s & 1) && (d & 1)) {
            CHECK(start_seen == !busy, "CSR start pulse %d with busy %d", int(start_seen), int(busy));
            if (!busy) { busy = true; done = false; starts++; kernel_running = true; kernel_done_at = now + 1 + rng() % 40; }
        } else {
            CHECK(!start_seen, "CSR start pulse without a START write");
        }
        if (w == 2 && (s & 1)) reg_en = d & 3;
        if (w == 3 && (s & 1)) irq_st &= ~(d & 3);
        if (w >= 4 && w <= 6) gsize[w - 4] = merge(gsize[w - 4], d, s);
        if (w >= 7 && w <= 9) lsize[w - 7] = merge(lsize[w - 7], d, s);
        if (w >= 16 && w < 24) args[w - 16] = merge(args[w - 16], d, s);
    }
    uint32_t random_addr() {
        int r = int(rng() % 10);
        uint32_t w;
        if (r < 2) w = rng() % 4;               // control / status / irq
        else if (r < 4) w = 4 + rng() % 6;      // sizes
        else if (r < 7) w = 16 + rng() % 8;     // arguments
        else if (r < 8) w = chance(50) ? 14 + rng() % 2 : 64 + rng() % 4;  // read-only
        else w = rng() % 1024;                  // anything, often unmapped
        return w * 4 + ((rng() % 4 == 0) ? rng() % 4 : 0);
    }
    void drive() {
        if (!w_active && !r_active && chance(30)) {
            if (chance(60)) {
                w_active = true;
                aw_sent = wd_sent = b_wait = false;
                w_addr = random_addr();
                if (chance(25)) w_addr = 0;  // START often
                w_data = uint32_t(rng());
                if (w_addr / 4 == 0 || w_addr / 4 == 3) w_data = chance(70) ? 1 : uint32_t(rng());
                w_strb = chance(70) ? 0xf : uint32_t(rng() % 16);
                int order = int(rng() % 3);  // 0 AW first, 1 W first, 2 together
                orders[order]++;
                uint64_t d = rng() % 5;
                aw_at = now + (order == 1 ? d : 0);
                wd_at = now + (order == 0 ? d : 0);
            } else {
                r_active = true;
                ar_sent = false;
                r_addr = random_addr();
            }
        }
        top->s_awvalid = w_active && !aw_sent && now >= aw_at;
        top->s_awaddr = w_addr;
        top->s_wvalid = w_active && !wd_sent && now >= wd_at;
        top->s_wdata = w_data;
        top->s_wstrb = w_strb;
        top->s_bready = chance(60);
        top->s_arvalid = r_active && !ar_sent;
        top->s_araddr = r_addr;
        top->s_rready = chance(60);
        // Fake kernel: done some cycles after start, only while no write is in flight so
        // the model's order of events is the hardware's.
        bool fire = kernel_running && now >= kernel_done_at && !w_active;
        top->k_done = fire;
        top->k_err = fire && chance(30) ? uint8_t(1 + rng() % 255) : 0;
    }
    void observe() {
        // Outputs that must match the model whenever no write is between AW and B.
        if (!w_active) {
            CHECK(top->k_busy == busy, "CSR busy %d want %d", top->k_busy, int(busy));
            CHECK(top->k_irq == ((irq_st & reg_en) != 0), "CSR irq %d want %d", top->k_irq, int((irq_st & reg_en) != 0));
            for (int i = 0; i < 3; i++) {
                CHECK(top->k_gsize[i] == gsize[i], "CSR global_size[%d] 0x%x want 0x%x", i, top->k_gsize[i], gsize[i]);
                CHECK(top->k_lsize[i] == lsize[i], "CSR local_size[%d] 0x%x want 0x%x", i, top->k_lsize[i], lsize[i]);
            }
            for (int i = 0; i < 8; i++) CHECK(top->k_args[i] == args[i], "CSR arg %d 0x%x want 0x%x", i, top->k_args[i], args[i]);
            CHECK(!top->k_start, "CSR start pulse with no write");
        }
        if (top->s_awvalid && top->s_awready) aw_sent = true;
        if (top->s_wvalid && top->s_wready) wd_sent = true;
        if (top->s_bvalid && !b_wait) {
            CHECK(w_active && aw_sent && wd_sent, "CSR BVALID before AW and W were both taken");
            b_wait = true;
            uint32_t w = (w_addr / 4) & 0x3ff;
            CHECK(top->s_bresp == (mapped(w) ? 0 : 2), "CSR BRESP %d for address 0x%x", top->s_bresp, w_addr);
            if (!mapped(w)) slverr++;
            apply(w, w_data, w_strb, top->k_start);
        }
        if (top->s_bvalid && top->s_bready) { w_active = false; writes++; }
        if (top->s_arvalid && top->s_arready) {
            ar_sent = true;
            uint32_t w = (r_addr / 4) & 0x3ff;
            r_want = mapped(w) ? value(w) : 0;
            r_resp_want = mapped(w) ? 0 : 2;
        } else if (top->s_rvalid && ar_sent) {
            // R is held until RREADY: nothing to update
        }
        if (top->s_rvalid) CHECK(r_active && ar_sent, "CSR RVALID without a read");
        if (top->s_rvalid && top->s_rready) {
            CHECK(top->s_rdata == r_want, "CSR read 0x%x: 0x%x want 0x%x", r_addr, top->s_rdata, r_want);
            CHECK(top->s_rresp == r_resp_want, "CSR RRESP %d for 0x%x", top->s_rresp, r_addr);
            r_active = false;
            reads++;
        }
        if (top->k_done) {
            busy = false;
            done = true;
            err = top->k_err;
            irq_st |= 1;
            if (top->k_err) irq_st |= 2;
            kernel_running = false;
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
    int commands = argc > 2 ? std::atoi(argv[2]) : 400;
    rng.seed(seed);
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtb_axi>(ctx.get());
    auto a = CFG(IData, CData, a, "a(32b,16,4)", 4, 16, 4);
    auto b = CFG(QData, CData, b, "b(64b,256,2)", 8, 256, 2);
    auto c = CFG(VlWide<8>, IData, c, "c(256b,16,1)", 32, 16, 1);
    Csr csr{top.get()};
    for (auto* m : {&a.rmem, &b.rmem, &c.rmem, &a.wmem, &b.wmem, &c.wmem})
        for (auto& x : *m) x = uint8_t(rng());
    a.wmodel = a.wmem; b.wmodel = b.wmem; c.wmodel = c.wmem;
    a.stall = 30; b.stall = 50; c.stall = 15;
    a.rcmds_left = a.wcmds_left = commands;
    b.rcmds_left = b.wcmds_left = commands / 2;
    c.rcmds_left = c.wcmds_left = commands;
    auto tick = [&] {
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
        now++;
    };
    top->rst = 1;
    tick();
    tick();
    top->rst = 0;
    auto step = [&] {
        a.drive(); b.drive(); c.drive(); csr.drive();
        top->eval();
        a.observe(); b.observe(); c.observe(); csr.observe();
        tick();
    };
    const uint64_t limit = 3000000;
    while (!(a.done() && b.done() && c.done()) && now < limit && errors < 15) step();
    CHECK(now < limit, "timeout: masters did not finish (a %d %d, b %d %d, c %d %d)", int(a.done()), 0,
          int(b.done()), 0, int(c.done()), 0);
    a.final_check(); b.final_check(); c.final_check();
    CHECK(!*a.rerr && !*a.werr && !*b.rerr && !*b.werr && !*c.rerr && !*c.werr, "err set without an error response");
    // Error responses: one read and one write beyond the slave's memory (config a).
    a.rcmds_left = a.wcmds_left = 1;
    a.rc = {MEM + 64, 8}; a.rc_hold = true;
    a.wc = {MEM + 64, 4}; a.wc_hold = true;
    uint64_t t0 = now;
    while (!(a.done() && a.w_expect.empty()) && now < t0 + 2000) step();
    CHECK(*a.rerr && *a.werr, "err not set after SLVERR responses (read %d, write %d)", *a.rerr, *a.werr);
    for (int i = 0; i < 200; i++) step();  // CSR traffic keeps going a little longer
    CHECK(csr.starts > 0 && csr.slverr > 0 && csr.orders[0] && csr.orders[1] && csr.orders[2],
          "CSR coverage: starts %llu slverr %llu", (unsigned long long)csr.starts, (unsigned long long)csr.slverr);
    if (errors) {
        std::printf("FAIL errors=%d\n", errors);
        return 1;
    }
    std::printf("PASS cycles=%llu read_words=%llu write_beats=%llu csr_writes=%llu csr_reads=%llu kernel_starts=%llu\n",
                (unsigned long long)now, (unsigned long long)(a.r_words + b.r_words + c.r_words),
                (unsigned long long)(a.w_beats + b.w_beats + c.w_beats), (unsigned long long)csr.writes,
                (unsigned long long)csr.reads, (unsigned long long)csr.starts);
    return 0;
}
