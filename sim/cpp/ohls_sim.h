// ohls_sim.h: what the generic harness and a core's generated binding share: the values
// on an AXI4 master and on the AXI4-Lite control port in plain C++ types, the interface
// the binding implements for one Verilated core, and conversions from Verilator's port
// types (CData/SData/IData/QData for up to 64 bits, VlWide<N> above) to bytes.
#pragma once

#include "verilated.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ohls {

// Widest data bus in bytes (512 bits).
constexpr int MAX_BYTES = 64;

// Everything a core drives on one AXI4 master.
struct AxiOut {
    bool arvalid = false;
    uint64_t araddr = 0;
    unsigned arlen = 0, arsize = 0, arburst = 0;
    uint64_t arid = 0;
    bool rready = false;
    bool awvalid = false;
    uint64_t awaddr = 0;
    unsigned awlen = 0, awsize = 0, awburst = 0;
    uint64_t awid = 0;
    bool wvalid = false;
    uint8_t wdata[MAX_BYTES] = {};
    uint64_t wstrb = 0;
    bool wlast = false;
    bool bready = false;
};

// Everything the memory drives on one AXI4 master.
struct AxiIn {
    bool arready = false;
    bool rvalid = false;
    uint8_t rdata[MAX_BYTES] = {};
    unsigned rresp = 0;
    bool rlast = false;
    uint64_t rid = 0;
    bool awready = false;
    bool wready = false;
    bool bvalid = false;
    unsigned bresp = 0;
    uint64_t bid = 0;
};

// What the core drives on its AXI4-Lite control port.
struct LiteOut {
    bool awready = false, wready = false;
    bool bvalid = false;
    unsigned bresp = 0;
    bool arready = false;
    bool rvalid = false;
    uint32_t rdata = 0;
    unsigned rresp = 0;
};

// What the host drives on the control port.
struct LiteIn {
    bool awvalid = false;
    uint32_t awaddr = 0;
    bool wvalid = false;
    uint32_t wdata = 0;
    unsigned wstrb = 0;
    bool bready = false;
    bool arvalid = false;
    uint32_t araddr = 0;
    bool rready = false;
};

struct MasterInfo {
    std::string name;
    int data_bytes;
    int addr_width;
};

// One Verilated core, implemented by the generated binding (only it knows the port names).
class Dut {
  public:
    virtual ~Dut() = default;
    virtual void clk(bool v) = 0;
    virtual void rst(bool v) = 0;
    virtual void eval() = 0;
    virtual bool irq() = 0;
    virtual void drive_csr(const LiteIn& in) = 0;
    virtual void sample_csr(LiteOut& out) = 0;
    virtual void drive_master(int m, const AxiIn& in) = 0;
    virtual void sample_master(int m, AxiOut& out) = 0;
    // Returns an error message, or "" once tracing to `path` has started.
    virtual std::string trace_open(const std::string& path) = 0;
    virtual void trace_dump(uint64_t time) = 0;
    virtual void finish() = 0;
};

// A condition that ends the run: its message goes to the result file.
struct Fault : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses the run directory's config, runs the core and writes the results there.
int run_main(int argc, char** argv, Dut& dut, const std::vector<MasterInfo>& masters);

// ---- Port conversions. Verilator stores a port of up to 64 bits as an integer and a wider
// one as VlWide<N>, an array of 32-bit words, least significant first.

template <typename T> uint64_t get_u64(const T& v) { return static_cast<uint64_t>(v); }
template <std::size_t N> uint64_t get_u64(const VlWide<N>& v) {
    return uint64_t(v.at(0)) | (N > 1 ? uint64_t(v.at(1)) << 32 : 0);
}
template <typename T> void put_u64(T& v, uint64_t x) { v = static_cast<T>(x); }
template <std::size_t N> void put_u64(VlWide<N>& v, uint64_t x) {
    for (std::size_t i = 0; i < N; i++) v.at(i) = i == 0 ? uint32_t(x) : i == 1 ? uint32_t(x >> 32) : 0;
}

template <typename T> void get_bytes(const T& v, uint8_t* out, int n) {
    uint64_t x = static_cast<uint64_t>(v);
    for (int i = 0; i < n && i < 8; i++) out[i] = uint8_t(x >> (8 * i));
}
template <std::size_t N> void get_bytes(const VlWide<N>& v, uint8_t* out, int n) {
    for (int i = 0; i < n && i < int(4 * N); i++) out[i] = uint8_t(v.at(i / 4) >> (8 * (i % 4)));
}
template <typename T> void put_bytes(T& v, const uint8_t* in, int n) {
    uint64_t x = 0;
    for (int i = 0; i < n && i < 8; i++) x |= uint64_t(in[i]) << (8 * i);
    v = static_cast<T>(x);
}
template <std::size_t N> void put_bytes(VlWide<N>& v, const uint8_t* in, int n) {
    for (std::size_t w = 0; w < N; w++) v.at(w) = 0;
    for (int i = 0; i < n && i < int(4 * N); i++) v.at(i / 4) |= uint32_t(in[i]) << (8 * (i % 4));
}

}  // namespace ohls
