// memories_tb: drives tb_memories with random reads and writes and compares every read
// with an array model: registered reads (1 cycle), read-during-write returns the old word
// (1r1w, banked, TDP cross-port) or the new word (TDP same port), byte enables, rdata held
// while not reading, the ROM against its hex file, and banked RAMs with conflict-free
// parallel accesses and lowest-lane-wins conflicts.
// Usage: sim SEED CYCLES ROM_HEX. Prints "PASS ..." or the first mismatches and exits 1.
#include "Vtb_memories.h"
#include "verilated.h"
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

int errors = 0;
void fail(const char* what, uint64_t cyc, long addr, uint64_t got, uint64_t want) {
    if (errors < 12)
        std::printf("MISMATCH %s cycle %llu addr %ld: got 0x%llx want 0x%llx\n", what,
                    (unsigned long long)cyc, addr, (unsigned long long)got, (unsigned long long)want);
    errors++;
}

// A word model that knows which words were written (reads of unwritten words are not
// checked: RAM contents are undefined after configuration).
struct Model {
    std::vector<uint32_t> w;
    std::vector<bool> known;
    explicit Model(size_t n) : w(n), known(n) {}
};

// A read issued this cycle whose registered result is checked after the edge.
struct Pending {
    bool active = false, known = false;
    long addr = 0;
    uint32_t want = 0;
    void set(const Model& m, long a) { active = true; addr = a; known = m.known[a]; want = m.w[a]; }
};

uint32_t get_field(const uint32_t* words, int lsb, int width) {
    uint64_t v = words[lsb / 32];
    if ((lsb % 32) + width > 32) v |= uint64_t(words[lsb / 32 + 1]) << 32;
    return uint32_t((v >> (lsb % 32)) & ((1ull << width) - 1));
}
void set_field(uint32_t& v, int lsb, int width, uint32_t x) {
    uint32_t m = ((1u << width) - 1) << lsb;
    v = (v & ~m) | ((x << lsb) & m);
}

struct Banked {
    const char* name;
    int nb, depth;
    bool block;
    Model m;
    Pending rd[4];
    uint64_t parallel_cycles = 0, conflicts = 0;
    Banked(const char* n, int nb_, int d, bool b) : name(n), nb(nb_), depth(d), block(b), m(d) {}
    int bank(long a) const { return block ? int(a / (depth / nb)) : int(a % nb); }
    long addr_in_bank(int b, std::mt19937_64& rng) const {
        long per = depth / nb;
        return block ? b * per + long(rng() % per) : long(rng() % per) * nb + b;
    }
};

// Drives one banked RAM for a cycle; returns after checking the conflict flags.
template <typename WDATA>
void banked_cycle(Banked& k, std::mt19937_64& rng, uint64_t cyc, CData& wr_en, IData& wr_addr,
                  WDATA& wr_data, CData& rd_en, IData& rd_addr, CData& rd_conf, CData& wr_conf,
                  Vtb_memories* top) {
    bool parallel = rng() % 2;  // every lane on its own bank, all enabled
    std::vector<int> perm(k.nb);
    for (int i = 0; i < k.nb; i++) perm[i] = i;
    std::vector<long> wa(k.nb), ra(k.nb);
    std::vector<uint32_t> wd(k.nb);
    uint8_t we = 0, re = 0;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i < k.nb; i++) wa[i] = parallel ? k.addr_in_bank(perm[i], rng) : long(rng() % k.depth);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int i = 0; i < k.nb; i++) ra[i] = parallel ? k.addr_in_bank(perm[i], rng) : long(rng() % k.depth);
    for (int i = 0; i < k.nb; i++) {
        wd[i] = uint32_t(rng());
        if (parallel || rng() % 2) we |= 1 << i;
        if (parallel || rng() % 2) re |= 1 << i;
        set_field(wr_addr, 6 * i, 6, uint32_t(wa[i]));
        set_field(rd_addr, 6 * i, 6, uint32_t(ra[i]));
        wr_data[i] = wd[i];
    }
    wr_en = we;
    rd_en = re;
    top->eval();
    // Lowest lane wins each bank.
    uint8_t want_wc = 0, want_rc = 0;
    for (int i = 0; i < k.nb; i++)
        for (int j = 0; j < i; j++) {
            if ((we >> i & 1) && (we >> j & 1) && k.bank(wa[i]) == k.bank(wa[j])) want_wc |= 1 << i;
            if ((re >> i & 1) && (re >> j & 1) && k.bank(ra[i]) == k.bank(ra[j])) want_rc |= 1 << i;
        }
    if (wr_conf != want_wc) fail(k.name, cyc, -1, wr_conf, want_wc);
    if (rd_conf != want_rc) fail(k.name, cyc, -1, rd_conf, want_rc);
    if (parallel && (want_wc || want_rc)) fail("testbench: parallel pattern conflicts", cyc, -1, want_wc, want_rc);
    if (parallel) k.parallel_cycles++;
    if (want_wc || want_rc) k.conflicts++;
    for (int i = 0; i < k.nb; i++) {
        k.rd[i].active = false;
        if ((re >> i & 1) && !(want_rc >> i & 1)) k.rd[i].set(k.m, ra[i]);
    }
    for (int i = 0; i < k.nb; i++)
        if ((we >> i & 1) && !(want_wc >> i & 1)) { k.m.w[wa[i]] = wd[i]; k.m.known[wa[i]] = true; }
}

template <typename RDATA> void banked_check(Banked& k, uint64_t cyc, RDATA& rd_data) {
    for (int i = 0; i < k.nb; i++) {
        Pending& p = k.rd[i];
        if (p.active && p.known && rd_data[i] != p.want) fail(k.name, cyc, p.addr, rd_data[i], p.want);
    }
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1;
    uint64_t cycles = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 100000;
    std::string rom_path = argc > 3 ? argv[3] : "";
    std::vector<uint32_t> rom;
    {
        std::ifstream f(rom_path);
        std::string tok;
        while (f >> tok) rom.push_back(uint32_t(std::stoul(tok, nullptr, 16)));
    }
    if (rom.size() != 256) {
        std::printf("FAIL cannot read 256 ROM words from '%s' (got %zu)\n", rom_path.c_str(), rom.size());
        return 1;
    }
    std::mt19937_64 rng(seed);
    auto ctx = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vtb_memories>(ctx.get());
    Model r0(64), r1(100), t(64);
    Pending p0, p1, pa, pb, prom;
    uint32_t last0 = 0, last1 = 0;
    bool have0 = false, have1 = false;
    Banked bc("banked cyclic", 4, 64, false), bb("banked block", 4, 64, true), b3("banked cyclic 3", 3, 48, false);
    uint64_t rdw_checked = 0;
    for (uint64_t c = 0; c < cycles; c++) {
        // r0: byte-enabled. Reads often target the address being written (read-during-write).
        top->r0_we = rng() % 2;
        top->r0_waddr = rng() % 64;
        top->r0_wdata = uint32_t(rng());
        top->r0_wbe = rng() % 16;
        top->r0_re = rng() % 3 != 0;
        top->r0_raddr = (rng() % 4 == 0) ? top->r0_waddr : rng() % 64;
        top->r1_we = rng() % 2;
        top->r1_waddr = rng() % 100;
        top->r1_wdata = uint16_t(rng());
        top->r1_re = rng() % 3 != 0;
        top->r1_raddr = (rng() % 4 == 0) ? top->r1_waddr : rng() % 100;
        top->ta_en = rng() % 4 != 0;
        top->ta_we = rng() % 2;
        top->ta_addr = rng() % 64;
        top->ta_wdata = uint32_t(rng());
        top->tb_en = rng() % 4 != 0;
        top->tb_we = rng() % 2;
        top->tb_addr = (rng() % 4 == 0) ? top->ta_addr : rng() % 64;
        top->tb_wdata = uint32_t(rng());
        // Both ports writing one word is undefined: never do it.
        if (top->ta_en && top->ta_we && top->tb_en && top->tb_we && top->ta_addr == top->tb_addr)
            top->tb_we = 0;
        top->rom_en = rng() % 4 != 0;
        top->rom_addr = rng() % 256;
        banked_cycle(bc, rng, c, top->bc_wr_en, top->bc_wr_addr, top->bc_wr_data, top->bc_rd_en,
                     top->bc_rd_addr, top->bc_rd_conflict, top->bc_wr_conflict, top.get());
        banked_cycle(bb, rng, c, top->bb_wr_en, top->bb_wr_addr, top->bb_wr_data, top->bb_rd_en,
                     top->bb_rd_addr, top->bb_rd_conflict, top->bb_wr_conflict, top.get());
        banked_cycle(b3, rng, c, top->b3_wr_en, top->b3_wr_addr, top->b3_wr_data, top->b3_rd_en,
                     top->b3_rd_addr, top->b3_rd_conflict, top->b3_wr_conflict, top.get());
        top->eval();
        // Expected reads: old contents (before this cycle's writes).
        p0.active = top->r0_re;
        if (p0.active) p0.set(r0, top->r0_raddr);
        if (p0.active && top->r0_we && top->r0_waddr == top->r0_raddr && p0.known) rdw_checked++;
        p1.active = top->r1_re;
        if (p1.active) p1.set(r1, top->r1_raddr);
        pa.active = top->ta_en;
        if (pa.active) {
            if (top->ta_we) { pa.known = true; pa.want = top->ta_wdata; pa.addr = top->ta_addr; }
            else pa.set(t, top->ta_addr);
        }
        pb.active = top->tb_en;
        if (pb.active) {
            if (top->tb_we) { pb.known = true; pb.want = top->tb_wdata; pb.addr = top->tb_addr; }
            else pb.set(t, top->tb_addr);
        }
        prom.active = top->rom_en;
        if (prom.active) { prom.known = true; prom.addr = top->rom_addr; prom.want = rom[top->rom_addr]; }
        // Writes.
        if (top->r0_we) {
            uint32_t& w = r0.w[top->r0_waddr];
            for (int b = 0; b < 4; b++)
                if (top->r0_wbe >> b & 1) w = (w & ~(0xffu << 8 * b)) | (top->r0_wdata & (0xffu << 8 * b));
            // A word counts as known once all four bytes were written; track it per word
            // conservatively by requiring a full-word write first.
            if (top->r0_wbe == 0xf) r0.known[top->r0_waddr] = true;
        }
        if (top->r1_we) { r1.w[top->r1_waddr] = top->r1_wdata; r1.known[top->r1_waddr] = true; }
        if (top->ta_en && top->ta_we) { t.w[top->ta_addr] = top->ta_wdata; t.known[top->ta_addr] = true; }
        if (top->tb_en && top->tb_we) { t.w[top->tb_addr] = top->tb_wdata; t.known[top->tb_addr] = true; }
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
        // Registered results, and held values when not reading.
        if (p0.active) {
            if (p0.known && top->r0_rdata != p0.want) fail("ram_1r1w byte-enable", c, p0.addr, top->r0_rdata, p0.want);
            last0 = top->r0_rdata; have0 = true;
        } else if (have0 && top->r0_rdata != last0) fail("ram_1r1w rdata not held", c, -1, top->r0_rdata, last0);
        if (p1.active) {
            if (p1.known && top->r1_rdata != p1.want) fail("ram_1r1w D100", c, p1.addr, top->r1_rdata, p1.want);
            last1 = top->r1_rdata; have1 = true;
        } else if (have1 && top->r1_rdata != last1) fail("ram_1r1w D100 rdata not held", c, -1, top->r1_rdata, last1);
        if (pa.active && pa.known && top->ta_rdata != pa.want) fail("ram_tdp port a", c, pa.addr, top->ta_rdata, pa.want);
        if (pb.active && pb.known && top->tb_rdata != pb.want) fail("ram_tdp port b", c, pb.addr, top->tb_rdata, pb.want);
        if (prom.active && top->rom_data != prom.want) fail("rom", c, prom.addr, top->rom_data, prom.want);
        banked_check(bc, c, top->bc_rd_data);
        banked_check(bb, c, top->bb_rd_data);
        banked_check(b3, c, top->b3_rd_data);
    }
    if (bc.parallel_cycles < cycles / 4 || bc.conflicts == 0) fail("testbench coverage of banked patterns", 0, -1, bc.parallel_cycles, cycles / 4);
    if (rdw_checked < cycles / 100) fail("testbench coverage of read-during-write", 0, -1, rdw_checked, cycles / 100);
    if (errors) {
        std::printf("FAIL errors=%d\n", errors);
        return 1;
    }
    std::printf("PASS cycles=%llu parallel_bank_cycles=%llu conflict_cycles=%llu rdw_same_addr=%llu\n",
                (unsigned long long)cycles, (unsigned long long)bc.parallel_cycles,
                (unsigned long long)bc.conflicts, (unsigned long long)rdw_checked);
    return 0;
}
