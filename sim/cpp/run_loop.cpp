// run_loop.cpp: the cycle loop. Each cycle the memory models and the control port master
// set their outputs from their state, the core settles, a shared bandwidth budget decides
// which data beats may move, the protocol is checked, the clock rises and every side takes
// its handshakes. The run ends when the core's irq reports DONE and STATUS and the
// registers the config lists (the core's counters) have been read, or with a Fault (cycle limit, stray address, protocol violation).
#include "axi_slave.h"
#include "axil_master.h"
#include "ohls_sim.h"
#include "run_io.h"

#include <algorithm>
#include <cstdio>

namespace ohls {

namespace {

constexpr uint32_t REG_CONTROL = 0x00, REG_STATUS = 0x04, REG_IRQ_ENABLE = 0x08;
constexpr int RESET_CYCLES = 8;
// How often STATUS is read while waiting for irq, to catch a core whose irq is not wired.
constexpr uint64_t POLL_EVERY = 4096;

// Shares `budget` data beats among the masters, round robin from `rr`. An R beat shown
// last cycle and not taken must stay, so it is served first, even past the budget.
// Returns whether any VALID or READY was withdrawn.
bool arbitrate(std::vector<AxiSlave>& slaves, std::vector<AxiIn>& ins,
               const std::vector<AxiOut>& outs, int64_t budget, unsigned rr) {
    const std::size_t n = slaves.size();
    for (std::size_t i = 0; i < n; i++)
        if (slaves[i].r_sticky() && outs[i].rready) budget--;
    bool changed = false;
    for (std::size_t k = 0; k < 2 * n; k++) {
        std::size_t slot = (rr + k) % (2 * n);
        std::size_t i = slot / 2;
        AxiIn& in = ins[i];
        if (slot % 2 == 0) {
            if (!in.rvalid || slaves[i].r_sticky()) continue;
            // A beat shown but not taken becomes sticky, so it needs a share now too.
            if (budget > 0) budget -= outs[i].rready ? 1 : 0;
            else {
                in.rvalid = false;
                changed = true;
            }
        } else if (in.wready && outs[i].wvalid) {
            if (budget > 0) budget--;
            else {
                in.wready = false;
                changed = true;
            }
        }
    }
    return changed;
}

std::string limit_message(uint64_t limit, const LiteMaster& lite,
                          const std::vector<AxiSlave>& slaves) {
    std::string m = "cycle limit of " + std::to_string(limit) + " cycles reached: ";
    m += lite.started() ? "the kernel started at cycle " + std::to_string(lite.start_cycle()) +
                              " and has not signalled DONE"
                        : "the kernel was never started";
    m += "; last AXI activity:";
    for (const auto& s : slaves)
        m += "\n  master " + s.info().name + ": " + s.last_activity() + " (in flight: " +
             s.in_flight() + ")";
    m += "\n  control port: " + lite.last_activity();
    return m;
}

struct Loop {
    Dut& dut;
    RunConfig& cfg;
    RunResult& res;
    Rng rng;
    std::vector<AxiSlave> slaves;
    LiteMaster lite;
    std::vector<AxiIn> ins;
    std::vector<AxiOut> outs;
    LiteIn lin;
    LiteOut lout;
    bool tracing = false;

    Loop(Dut& d, const std::vector<MasterInfo>& masters, RunConfig& c, RunResult& r)
        : dut(d), cfg(c), res(r), rng(c.timing.seed), lite(rng, c.timing.stall_percent),
          ins(masters.size()), outs(masters.size()) {
        for (const auto& m : masters) slaves.emplace_back(m, cfg.mem, cfg.timing, rng);
    }

    void drive() {
        dut.drive_csr(lin);
        for (std::size_t i = 0; i < slaves.size(); i++) dut.drive_master(int(i), ins[i]);
    }
    void sample() {
        dut.sample_csr(lout);
        for (std::size_t i = 0; i < slaves.size(); i++) dut.sample_master(int(i), outs[i]);
    }

    void reset() {
        dut.rst(true);
        drive();
        for (int i = 0; i < RESET_CYCLES; i++) {
            dut.clk(false);
            dut.eval();
            dut.clk(true);
            dut.eval();
        }
        dut.rst(false);
        dut.clk(false);
        dut.eval();
    }

    void run() {
        if (!cfg.trace.empty()) {
            std::string e = dut.trace_open(cfg.trace);
            if (!e.empty()) throw Fault(e);
            tracing = true;
        }
        for (const auto& w : cfg.csr) lite.push({true, w.first, w.second, LiteTag::None});
        lite.push({true, REG_IRQ_ENABLE, 1, LiteTag::None});
        lite.push({true, REG_CONTROL, 1, LiteTag::Start});
        reset();
        const uint64_t bw = cfg.timing.bw_milli;
        const int64_t cap = int64_t((bw + 999) / 1000 * 1000);
        int64_t tokens = cap;
        bool done_seen = false;
        for (uint64_t c = 0;; c++) {
            res.total_cycles = c;
            if (c >= cfg.cycle_limit) throw Fault(limit_message(cfg.cycle_limit, lite, slaves));
            lite.propose(lin);
            for (std::size_t i = 0; i < slaves.size(); i++) slaves[i].propose(c, ins[i]);
            drive();
            dut.eval();
            sample();
            if (bw != 0 && !slaves.empty() &&
                arbitrate(slaves, ins, outs, tokens / 1000, unsigned(c % (2 * slaves.size())))) {
                drive();
                dut.eval();
                sample();
            }
            lite.check(lout, c);
            for (std::size_t i = 0; i < slaves.size(); i++) slaves[i].check(outs[i], c);
            bool irq = dut.irq();
            if (tracing) dut.trace_dump(10 * c);
            dut.clk(true);
            dut.eval();
            if (tracing) dut.trace_dump(10 * c + 5);
            LiteResult lr{};
            bool fin = lite.commit(lout, lin, c, lr);
            for (std::size_t i = 0; i < slaves.size(); i++) {
                slaves[i].commit(outs[i], ins[i], c);
                int beats = int(ins[i].rvalid && outs[i].rready) + int(ins[i].wready && outs[i].wvalid);
                tokens -= 1000 * beats;
            }
            tokens = std::min(cap, tokens + int64_t(bw));
            dut.clk(false);
            dut.eval();
            if (lite.started() && irq && !done_seen) {
                done_seen = true;
                res.start_cycle = lite.start_cycle();
                res.done_cycle = c;
                for (const auto& s : slaves)
                    if (!s.idle())
                        throw Fault("the core signalled DONE at cycle " + std::to_string(c) +
                                    " with traffic in flight on master " + s.info().name + ": " +
                                    s.in_flight());
                lite.push({false, REG_STATUS, 0, LiteTag::Status});
            }
            if (!done_seen && lite.started() && c % POLL_EVERY == 0 && !lite.busy())
                lite.push({false, REG_STATUS, 0, LiteTag::Poll});
            if (fin && lr.op.tag == LiteTag::Poll && (lr.rdata & 1) && !done_seen)
                throw Fault("STATUS.DONE is set but irq stayed low although IRQ_ENABLE bit 0 "
                            "was written 1 (cycle " + std::to_string(c) + ")");
            if (fin && lr.op.tag == LiteTag::Status) {
                if (!(lr.rdata & 1))
                    throw Fault("irq rose at cycle " + std::to_string(res.done_cycle) +
                                " but STATUS (" + hex(lr.rdata) + ") has DONE clear");
                res.error_code = (lr.rdata >> 8) & 0xff;
                if (cfg.reads.empty()) {
                    res.done = true;
                    return;
                }
                for (uint32_t a : cfg.reads) lite.push({false, a, 0, LiteTag::Counter});
            }
            if (fin && lr.op.tag == LiteTag::Counter) {
                res.reads.emplace_back(lr.op.addr, lr.rdata);
                if (res.reads.size() == cfg.reads.size()) {
                    res.done = true;
                    return;
                }
            }
        }
    }
};

}  // namespace

int run_main(int argc, char** argv, Dut& dut, const std::vector<MasterInfo>& masters) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s RUN_DIR\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    RunConfig cfg;
    std::string err = read_config(dir, cfg);
    if (!err.empty()) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    RunResult res;
    {
        Loop loop(dut, masters, cfg, res);
        try {
            loop.run();
        } catch (const Fault& f) {
            res.done = false;
            res.message = f.what();
        }
        for (const auto& s : loop.slaves) res.stats.emplace_back(s.info().name, s.stats());
    }
    dut.finish();
    if (!write_result(dir, cfg, res)) {
        std::fprintf(stderr, "cannot write the results to %s\n", dir.c_str());
        return 2;
    }
    return 0;
}

}  // namespace ohls
