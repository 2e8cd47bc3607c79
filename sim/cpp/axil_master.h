// axil_master.h: the host side of the AXI4-Lite control port: runs a queue of register
// reads and writes one at a time, with optional random delays, and checks the core's side
// of the protocol (responses only after a request, held until accepted, OKAY).
#pragma once

#include "memory.h"
#include "ohls_sim.h"

#include <deque>
#include <string>

namespace ohls {

enum class LiteTag { None, Start, Status, Poll, Counter };

struct LiteOp {
    bool write;
    uint32_t addr;
    uint32_t data;
    LiteTag tag;
};

struct LiteResult {
    LiteOp op;
    uint32_t rdata;
};

class LiteMaster {
  public:
    LiteMaster(Rng& rng, unsigned stall_percent) : rng_(rng), stall_(stall_percent) {}
    void push(const LiteOp& op) { ops_.push_back(op); }
    bool busy() const { return active_ || !ops_.empty(); }
    void propose(LiteIn& in);
    void check(const LiteOut& o, uint64_t cycle);
    // Applies the cycle's handshakes; true when an operation finished (its result in `res`).
    bool commit(const LiteOut& o, const LiteIn& in, uint64_t cycle, LiteResult& res);
    // The cycle in which the START write reached the core (0 before).
    uint64_t start_cycle() const { return start_cycle_; }
    bool started() const { return started_; }
    const std::string& last_activity() const { return last_; }

  private:
    [[noreturn]] void fail(const std::string& what, uint64_t cycle) const;
    Rng& rng_;
    unsigned stall_;
    std::deque<LiteOp> ops_;
    LiteOp cur_{};
    bool active_ = false, aw_done_ = false, w_done_ = false, ar_done_ = false;
    LiteOut prev_;
    bool prev_b_hs_ = false, prev_r_hs_ = false;
    bool started_ = false;
    uint64_t start_cycle_ = 0;
    std::string last_ = "none";
};

}  // namespace ohls
