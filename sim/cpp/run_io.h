// run_io.h: the files exchanged with the Rust side in the run directory: config.txt and
// in_<arg>.bin going in, result.txt and out_<arg>.bin coming out.
#pragma once

#include "axi_slave.h"
#include "memory.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ohls {

struct RunConfig {
    uint64_t cycle_limit = 1000000;
    MemTiming timing;
    Memory mem;
    std::vector<std::pair<uint32_t, uint32_t>> csr;  // (register, value) in order
    std::string trace;                               // "" for none
    std::vector<uint32_t> reads;  // registers read after DONE (the core's counters)
};

struct RunResult {
    bool done = false;
    std::string message;  // why the run stopped, when not done
    uint64_t start_cycle = 0, done_cycle = 0, total_cycles = 0;
    unsigned error_code = 0;
    std::vector<std::pair<std::string, Stats>> stats;
    std::vector<std::pair<uint32_t, uint32_t>> reads;  // (register, value) after DONE
};

// Reads config.txt and the input buffers; returns an error message or "".
std::string read_config(const std::string& dir, RunConfig& cfg);
// Writes result.txt and, when the run is done, the output buffers.
bool write_result(const std::string& dir, const RunConfig& cfg, const RunResult& res);

}  // namespace ohls
