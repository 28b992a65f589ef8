// How the ranks taking part in one synchronization name it alike
// (delay/sync_point_list.hpp's OperationId, paired_message_name.hpp): a
// hash of the operation's fields,
// equal on every rank that took part; different operations collide with
// negligible probability. Each field goes through splitmix64's finalizer,
// two multiplications per field rather than one per byte.
#pragma once

#include <cstdint>

namespace hindsight::analyses {

class OperationHash {
public:
    OperationHash& add(std::uint64_t field) {
        std::uint64_t x = hash_ ^ field;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        hash_ = x ^ (x >> 31);
        return *this;
    }
    // Kept below 2^53 so that the id travels exactly in a double.
    std::uint64_t value() const { return hash_ & ((std::uint64_t{1} << 53) - 1); }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace hindsight::analyses
