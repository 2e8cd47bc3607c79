// memory.cpp: address lookup in the simulated memory.
#include "memory.h"

#include <cstdio>

namespace ohls {

Region* Memory::find(uint64_t addr) {
    for (auto& r : regions)
        if (addr >= r.base && addr < r.end()) return &r;
    return nullptr;
}

bool Memory::overlaps(uint64_t lo, uint64_t hi) const {
    for (const auto& r : regions)
        if (lo < r.end() && r.base < hi) return true;
    return false;
}

uint8_t Memory::read(uint64_t addr) {
    Region* r = find(addr);
    return r ? r->data[addr - r->base] : 0;
}

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace ohls
