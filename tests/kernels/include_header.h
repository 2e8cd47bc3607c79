/* Shared by include_header.cl: found next to the kernel through #include "...". */
#ifndef INCLUDE_HEADER_H
#define INCLUDE_HEADER_H

#define HEADER_MAGIC 0x5bd1e995u

typedef struct { uint lo, hi; } pair_t;

static inline uint mix32(uint h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

#endif
