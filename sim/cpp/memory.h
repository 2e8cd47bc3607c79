// memory.h: the simulated memory (buffers placed in one address space, everything else
// unmapped), the memory's timing parameters and the seeded random source for stalls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ohls {

struct MemTiming {
    unsigned read_latency = 40;
    unsigned write_latency = 20;
    uint64_t bw_milli = 0;  // thousandths of a beat per cycle; 0: unlimited
    unsigned max_outstanding = 8;
    unsigned max_burst = 16;
    unsigned stall_percent = 0;
    uint64_t seed = 1;
};

// One buffer: bytes [base, base + data.size()) are mapped.
struct Region {
    int index;
    uint64_t base;
    std::vector<uint8_t> data;
    std::string out_file;
    uint64_t end() const { return base + data.size(); }
};

class Memory {
  public:
    std::vector<Region> regions;
    // The buffer that holds `addr`, or nullptr.
    Region* find(uint64_t addr);
    // Whether some buffer overlaps [lo, hi).
    bool overlaps(uint64_t lo, uint64_t hi) const;
    // A mapped byte, or 0 for an unmapped one (a beat may reach past a buffer's end).
    uint8_t read(uint64_t addr);
};

// xorshift64*: small, seeded, the same on every machine.
class Rng {
  public:
    explicit Rng(uint64_t seed) : s_(seed ? seed : 0x9E3779B97F4A7C15ull) {}
    uint64_t next() {
        s_ ^= s_ >> 12;
        s_ ^= s_ << 25;
        s_ ^= s_ >> 27;
        return s_ * 0x2545F4914F6CDD1Dull;
    }
    bool chance(unsigned percent) { return percent != 0 && next() % 100 < percent; }

  private:
    uint64_t s_;
};

std::string hex(uint64_t v);

}  // namespace ohls
