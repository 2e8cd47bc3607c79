// axil_master.cpp: the host side of the AXI4-Lite control port (see axil_master.h).
#include "axil_master.h"

namespace ohls {

void LiteMaster::fail(const std::string& what, uint64_t cycle) const {
    throw Fault("control port, cycle " + std::to_string(cycle) + ": " + what);
}

void LiteMaster::propose(LiteIn& in) {
    // A delayed start is the only stall a master may make on its own VALIDs: once raised,
    // they stay until accepted.
    if (!active_ && !ops_.empty() && !rng_.chance(stall_)) {
        cur_ = ops_.front();
        ops_.pop_front();
        active_ = true;
        aw_done_ = w_done_ = ar_done_ = false;
    }
    bool wr = active_ && cur_.write;
    bool rd = active_ && !cur_.write;
    in.awvalid = wr && !aw_done_;
    in.awaddr = cur_.addr;
    in.wvalid = wr && !w_done_;
    in.wdata = cur_.data;
    in.wstrb = 0xF;
    in.bready = !rng_.chance(stall_);
    in.arvalid = rd && !ar_done_;
    in.araddr = cur_.addr;
    in.rready = !rng_.chance(stall_);
}

void LiteMaster::check(const LiteOut& o, uint64_t cycle) {
    if (prev_.bvalid && !prev_b_hs_ && (!o.bvalid || o.bresp != prev_.bresp))
        fail("AXI-Lite protocol violation: BVALID/BRESP changed before BREADY", cycle);
    if (prev_.rvalid && !prev_r_hs_ &&
        (!o.rvalid || o.rdata != prev_.rdata || o.rresp != prev_.rresp))
        fail("AXI-Lite protocol violation: RVALID/RDATA/RRESP changed before RREADY", cycle);
    if (o.bvalid && !(active_ && cur_.write && aw_done_ && w_done_))
        fail("AXI-Lite protocol violation: BVALID without an accepted write", cycle);
    if (o.rvalid && !(active_ && !cur_.write && ar_done_))
        fail("AXI-Lite protocol violation: RVALID without an accepted read", cycle);
}

bool LiteMaster::commit(const LiteOut& o, const LiteIn& in, uint64_t cycle, LiteResult& res) {
    prev_ = o;
    prev_b_hs_ = o.bvalid && in.bready;
    prev_r_hs_ = o.rvalid && in.rready;
    if (!active_) return false;
    auto at = [cycle] { return "cycle " + std::to_string(cycle) + ": "; };
    if (cur_.write) {
        bool was = aw_done_ && w_done_;
        aw_done_ = aw_done_ || (in.awvalid && o.awready);
        w_done_ = w_done_ || (in.wvalid && o.wready);
        if (!was && aw_done_ && w_done_) {
            last_ = at() + "write " + hex(cur_.data) + " to " + hex(cur_.addr);
            if (cur_.tag == LiteTag::Start) {
                started_ = true;
                start_cycle_ = cycle;
            }
        }
        if (!prev_b_hs_) return false;
        if (o.bresp != 0)
            fail("the write of " + hex(cur_.data) + " to register " + hex(cur_.addr) +
                     " was answered " + (o.bresp == 2 ? "SLVERR" : "BRESP=" + std::to_string(o.bresp)),
                 cycle);
    } else {
        if (in.arvalid && o.arready) ar_done_ = true;
        if (!prev_r_hs_) return false;
        if (o.rresp != 0)
            fail("the read of register " + hex(cur_.addr) + " was answered " +
                     (o.rresp == 2 ? "SLVERR" : "RRESP=" + std::to_string(o.rresp)),
                 cycle);
        last_ = at() + "read " + hex(o.rdata) + " from " + hex(cur_.addr);
    }
    res = LiteResult{cur_, o.rdata};
    active_ = false;
    return true;
}

}  // namespace ohls
