// A 64-bit mix (splitmix64's finalizer) for checksums that ranks compare:
// summed over items, it gives a checksum independent of their order;
// folded along a sequence (mix(sum ^ item)), one that depends on it.
#pragma once

#include <cstdint>

namespace hindsight::trace {

constexpr std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace hindsight::trace
