// axi_slave.cpp: the memory side of one AXI4 master (see axi_slave.h).
#include "axi_slave.h"

#include <cstring>

namespace ohls {

namespace {
// W beats a master may send ahead of their AW before WREADY drops.
constexpr std::size_t W_AHEAD = 1024;
}  // namespace

AxiSlave::AxiSlave(const MasterInfo& info, Memory& mem, const MemTiming& timing, Rng& rng)
    : info_(info), mem_(mem), t_(timing), rng_(rng) {}

void AxiSlave::fail(const std::string& what, uint64_t cycle) const {
    throw Fault("master " + info_.name + ", cycle " + std::to_string(cycle) + ": " + what);
}

void AxiSlave::beat_range(const Burst& b, unsigned i, uint64_t& lo, uint64_t& hi) const {
    uint64_t aligned = b.addr & ~uint64_t(b.size - 1);
    lo = i == 0 ? b.addr : aligned + uint64_t(i) * b.size;
    hi = aligned + uint64_t(i + 1) * b.size;
}

AxiSlave::Burst AxiSlave::accept(const char* ch, uint64_t addr, unsigned len, unsigned size,
                                 unsigned burst, uint64_t id, uint64_t cycle) {
    std::string c = ch;
    if (burst != 1)
        fail("AXI protocol violation: " + c + "BURST=" + std::to_string(burst) +
                 " (only INCR bursts are supported)",
             cycle);
    if ((1u << size) > unsigned(info_.data_bytes))
        fail("AXI protocol violation: " + c + "SIZE=" + std::to_string(size) + " (" +
                 std::to_string(1u << size) + " bytes) is wider than the " +
                 std::to_string(info_.data_bytes) + "-byte bus",
             cycle);
    Burst b{addr, len + 1, 1u << size, id, 0};
    if (b.beats > t_.max_burst)
        fail("AXI burst of " + std::to_string(b.beats) + " beats at " + hex(addr) + " on " + c +
                 " is longer than the memory's limit of " + std::to_string(t_.max_burst) +
                 " (MemConfig.max_burst)",
             cycle);
    uint64_t lo, hi, last_lo, last_hi;
    beat_range(b, 0, lo, hi);
    beat_range(b, b.beats - 1, last_lo, last_hi);
    if ((addr >> 12) != ((last_hi - 1) >> 12))
        fail("AXI protocol violation: " + c + " burst at " + hex(addr) + " of " +
                 std::to_string(b.beats) + " beats x " + std::to_string(b.size) +
                 " bytes crosses a 4 KiB boundary (ends at " + hex(last_hi - 1) + ")",
             cycle);
    for (unsigned i = 0; i < b.beats; i++) {
        beat_range(b, i, lo, hi);
        if (!mem_.overlaps(lo, hi))
            fail(std::string(c == "AR" ? "read" : "write") + " outside any buffer: " + c +
                     " burst at " + hex(addr) + " (" + std::to_string(b.beats) + " beats x " +
                     std::to_string(b.size) + " bytes), beat " + std::to_string(i) +
                     " at address " + hex(lo),
                 cycle);
    }
    return b;
}

void AxiSlave::snapshot(Burst& b) {
    uint64_t lo, hi, last_lo, last_hi;
    beat_range(b, 0, lo, hi);
    beat_range(b, b.beats - 1, last_lo, last_hi);
    uint64_t from = lo & ~uint64_t(b.size - 1);
    b.snapshot.resize(last_hi - from);
    for (uint64_t x = from; x < last_hi; x++) b.snapshot[x - from] = mem_.read(x);
}

void AxiSlave::fill_r(const Burst& b, AxiIn& in) {
    uint64_t lo, hi;
    beat_range(b, b.next, lo, hi);
    uint64_t from = b.addr & ~uint64_t(b.size - 1);
    std::memset(in.rdata, 0, sizeof in.rdata);
    for (uint64_t x = lo; x < hi; x++) in.rdata[x % info_.data_bytes] = b.snapshot[x - from];
    in.rvalid = true;
    in.rlast = b.next + 1 == b.beats;
    in.rid = b.id;
    in.rresp = 0;
}

void AxiSlave::propose(uint64_t cycle, AxiIn& in) {
    unsigned p = t_.stall_percent;
    in.arready = rq_.size() < t_.max_outstanding && !rng_.chance(p);
    in.awready = wq_.size() + bq_.size() < t_.max_outstanding && !rng_.chance(p);
    in.wready = wbeats_.size() < W_AHEAD && !rng_.chance(p);
    if (r_shown_) {
        std::memcpy(in.rdata, hold_.rdata, sizeof in.rdata);
        in.rvalid = true;
        in.rlast = hold_.rlast;
        in.rid = hold_.rid;
        in.rresp = hold_.rresp;
    } else if (!rq_.empty() && rq_.front().ready <= cycle && !rng_.chance(p)) {
        fill_r(rq_.front(), in);
    } else {
        in.rvalid = false;
        in.rlast = false;
    }
    if (b_shown_ || (!bq_.empty() && bq_.front().ready <= cycle && !rng_.chance(p))) {
        in.bvalid = true;
        in.bid = bq_.front().id;
        in.bresp = 0;
    } else {
        in.bvalid = false;
    }
}

void AxiSlave::check(const AxiOut& o, uint64_t cycle) {
    auto held = [&](const char* ch, bool was, bool hs, bool now, bool same,
                    const std::string& detail) {
        if (!was || hs) return;
        std::string c = ch;
        if (!now)
            fail("AXI protocol violation: " + c + "VALID dropped before " + c + "READY", cycle);
        if (!same)
            fail("AXI protocol violation: " + c + " " + detail + " changed while " + c +
                     "VALID was high and " + c + "READY low",
                 cycle);
    };
    const AxiOut& p = prev_;
    held("AR", p.arvalid, prev_ar_hs_, o.arvalid,
         p.araddr == o.araddr && p.arlen == o.arlen && p.arsize == o.arsize &&
             p.arburst == o.arburst && p.arid == o.arid,
         "payload (ARADDR " + hex(p.araddr) + " -> " + hex(o.araddr) + ", ARLEN " +
             std::to_string(p.arlen) + " -> " + std::to_string(o.arlen) + ")");
    held("AW", p.awvalid, prev_aw_hs_, o.awvalid,
         p.awaddr == o.awaddr && p.awlen == o.awlen && p.awsize == o.awsize &&
             p.awburst == o.awburst && p.awid == o.awid,
         "payload (AWADDR " + hex(p.awaddr) + " -> " + hex(o.awaddr) + ", AWLEN " +
             std::to_string(p.awlen) + " -> " + std::to_string(o.awlen) + ")");
    held("W", p.wvalid, prev_w_hs_, o.wvalid,
         std::memcmp(p.wdata, o.wdata, info_.data_bytes) == 0 && p.wstrb == o.wstrb &&
             p.wlast == o.wlast,
         "payload (WDATA, WSTRB or WLAST)");
}

void AxiSlave::commit(const AxiOut& o, const AxiIn& in, uint64_t cycle) {
    prev_ = o;
    prev_ar_hs_ = o.arvalid && in.arready;
    prev_aw_hs_ = o.awvalid && in.awready;
    prev_w_hs_ = o.wvalid && in.wready;
    if (prev_ar_hs_) {
        Burst b = accept("AR", o.araddr, o.arlen, o.arsize, o.arburst, o.arid, cycle);
        b.ready = cycle + t_.read_latency;
        snapshot(b);
        rq_.push_back(std::move(b));
        stats_.ar_bursts++;
        last_ = Activity{"AR", cycle, o.araddr, 0, o.arlen + 1, false};
    }
    bool r_hs = in.rvalid && o.rready;
    r_shown_ = in.rvalid && !o.rready;
    if (r_shown_) hold_ = in;
    if (r_hs) {
        if (rq_.empty()) fail("internal: R beat without a burst", cycle);
        Burst& b = rq_.front();
        stats_.r_beats++;
        last_ = Activity{"R", cycle, b.addr, b.next + 1, b.beats, false};
        if (++b.next == b.beats) rq_.pop_front();
    }
    if (prev_aw_hs_) {
        Burst b = accept("AW", o.awaddr, o.awlen, o.awsize, o.awburst, o.awid, cycle);
        wq_.push_back(b);
        stats_.aw_bursts++;
        last_ = Activity{"AW", cycle, o.awaddr, 0, o.awlen + 1, false};
    }
    if (prev_w_hs_) {
        WBeat w;
        std::memcpy(w.data, o.wdata, sizeof w.data);
        w.strb = o.wstrb;
        w.last = o.wlast;
        wbeats_.push_back(w);
        stats_.w_beats++;
        last_ = Activity{"W", cycle, 0, 0, 0, o.wlast};
    }
    drain_w(cycle);
    b_shown_ = in.bvalid && !o.bready;
    if (in.bvalid && o.bready) {
        // Addresses were checked when the W beat arrived.
        for (const auto& xv : bq_.front().bytes) {
            if (Region* r = mem_.find(xv.first)) r->data[xv.first - r->base] = xv.second;
        }
        bq_.pop_front();
        last_ = Activity{"B", cycle, 0, 0, 0, false};
    }
}

void AxiSlave::drain_w(uint64_t cycle) {
    while (!wq_.empty() && !wbeats_.empty()) {
        Burst& b = wq_.front();
        const WBeat& w = wbeats_.front();
        bool last = b.next + 1 == b.beats;
        if (w.last != last)
            fail("AXI protocol violation: WLAST is " + std::string(w.last ? "high" : "low") +
                     " on beat " + std::to_string(b.next + 1) + " of the " +
                     std::to_string(b.beats) + "-beat burst at " + hex(b.addr),
                 cycle);
        write_beat(b, w, cycle);
        wbeats_.pop_front();
        if (++b.next == b.beats) {
            bq_.push_back(BResp{b.id, cycle + t_.write_latency, std::move(b.pending)});
            wq_.pop_front();
        }
    }
}

void AxiSlave::write_beat(Burst& b, const WBeat& w, uint64_t cycle) {
    uint64_t lo, hi;
    beat_range(b, b.next, lo, hi);
    uint64_t window = lo & ~uint64_t(info_.data_bytes - 1);
    for (int j = 0; j < info_.data_bytes; j++) {
        if (!((w.strb >> j) & 1)) continue;
        uint64_t x = window + j;
        if (x < lo || x >= hi)
            fail("AXI protocol violation: WSTRB lane " + std::to_string(j) + " set outside beat " +
                     std::to_string(b.next) + " of the burst at " + hex(b.addr),
                 cycle);
        Region* r = mem_.find(x);
        if (!r)
            fail("write outside any buffer: W beat " + std::to_string(b.next) +
                     " of the burst at " + hex(b.addr) + " writes address " + hex(x),
                 cycle);
        b.pending.emplace_back(x, w.data[j]);
    }
}

std::string AxiSlave::last_activity() const {
    const Activity& a = last_;
    if (!a.what) return "none";
    std::string w = a.what, s = "cycle " + std::to_string(a.cycle) + ": " + w;
    if (w == "AR" || w == "AW") return s + " " + hex(a.addr) + " len " + std::to_string(a.beats);
    if (w == "R")
        return s + " beat " + std::to_string(a.beat) + "/" + std::to_string(a.beats) +
               " of the burst at " + hex(a.addr);
    if (w == "W") return s + " beat" + (a.wlast ? " (WLAST)" : "");
    return s;
}

bool AxiSlave::idle() const {
    return rq_.empty() && wq_.empty() && wbeats_.empty() && bq_.empty() && !r_shown_;
}

std::string AxiSlave::in_flight() const {
    return std::to_string(rq_.size()) + " read bursts, " + std::to_string(wq_.size()) +
           " write bursts awaiting data, " + std::to_string(wbeats_.size()) +
           " W beats awaiting AW, " + std::to_string(bq_.size()) + " B responses";
}

}  // namespace ohls
