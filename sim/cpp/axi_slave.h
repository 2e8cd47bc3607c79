// axi_slave.h: the memory side of one AXI4 master: INCR bursts with latency, outstanding
// limits and random stalls, reads returned in order, writes honouring WSTRB byte by byte,
// and checks of the master's side of the protocol (stable payloads while VALID && !READY,
// WLAST, 4 KiB crossings, burst sizes) and of every address against the placed buffers.
//
// Ordering: AXI orders nothing between a master's reads and its writes, so the model takes
// the latest legal choice on both sides to expose a core that relies on luck: a read burst
// returns memory as it was when its AR was accepted, and a write burst's bytes reach memory
// only when its B response is taken. A read sees a write only if the core waited for that
// write's B before issuing the read.
#pragma once

#include "memory.h"
#include "ohls_sim.h"

#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace ohls {

struct Stats {
    uint64_t ar_bursts = 0, r_beats = 0, aw_bursts = 0, w_beats = 0;
};

class AxiSlave {
  public:
    AxiSlave(const MasterInfo& info, Memory& mem, const MemTiming& timing, Rng& rng);
    // The memory's outputs for this cycle, before bandwidth arbitration.
    void propose(uint64_t cycle, AxiIn& in);
    // An R beat shown last cycle and not taken: it must stay, whatever the bandwidth.
    bool r_sticky() const { return r_shown_; }
    // Checks the core's outputs of this cycle (final values) against the previous cycle.
    void check(const AxiOut& o, uint64_t cycle);
    // Applies this cycle's handshakes.
    void commit(const AxiOut& o, const AxiIn& in, uint64_t cycle);
    // Nothing in flight: every read returned, every write written and acknowledged.
    bool idle() const;
    std::string in_flight() const;
    const Stats& stats() const { return stats_; }
    std::string last_activity() const;
    const MasterInfo& info() const { return info_; }

  private:
    struct Burst {
        uint64_t addr;
        unsigned beats;
        unsigned size;  // bytes per beat
        uint64_t id;
        uint64_t ready;  // first cycle its next beat may move
        unsigned next = 0;
        // A read burst's bytes from its first beat's bus-aligned window on, copied when
        // its AR was accepted.
        std::vector<uint8_t> snapshot;
        // A write burst's bytes (address, value) in arrival order, applied at its B.
        std::vector<std::pair<uint64_t, uint8_t>> pending;
    };
    struct WBeat {
        uint8_t data[MAX_BYTES];
        uint64_t strb;
        bool last;
    };
    struct BResp {
        uint64_t id;
        uint64_t ready;
        std::vector<std::pair<uint64_t, uint8_t>> bytes;  // written when B is taken
    };

    Burst accept(const char* ch, uint64_t addr, unsigned len, unsigned size, unsigned burst,
                 uint64_t id, uint64_t cycle);
    void beat_range(const Burst& b, unsigned i, uint64_t& lo, uint64_t& hi) const;
    void snapshot(Burst& b);
    void fill_r(const Burst& b, AxiIn& in);
    void drain_w(uint64_t cycle);
    void write_beat(Burst& b, const WBeat& w, uint64_t cycle);
    [[noreturn]] void fail(const std::string& what, uint64_t cycle) const;

    MasterInfo info_;
    Memory& mem_;
    const MemTiming& t_;
    Rng& rng_;
    std::deque<Burst> rq_, wq_;
    std::deque<WBeat> wbeats_;
    std::deque<BResp> bq_;
    AxiOut prev_;
    bool prev_ar_hs_ = false, prev_aw_hs_ = false, prev_w_hs_ = false;
    bool r_shown_ = false, b_shown_ = false;
    AxiIn hold_;  // the R and B values shown last cycle
    Stats stats_;
    // The last handshake, kept as numbers: formatting it every beat would cost more than
    // the rest of the model.
    struct Activity {
        const char* what = nullptr;  // "AR", "R", "AW", "W", "B"
        uint64_t cycle = 0, addr = 0;
        unsigned beat = 0, beats = 0;
        bool wlast = false;
    } last_;
};

}  // namespace ohls
