// Finds a rank's synchronization point by the OperationId that every rank
// taking part in it gives it (sync_point_list.hpp): how a record from
// another rank names the point it concerns. An open-addressing table, since
// every record costs one lookup: the ids are hashes already, so their low
// bits spread evenly, and a probe touches one cache line where a search in
// a sorted table touches twenty.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyses/delay/sync_point_list.hpp"

namespace hindsight::analyses {

class OperationIndex {
public:
    OperationIndex() = default;
    explicit OperationIndex(const SyncPointList& points) {
        std::size_t capacity = 16;
        while (capacity < points.size() + points.size() / 2) capacity *= 2;  // at most two thirds full
        mask_ = capacity - 1;
        slots_.assign(capacity, Slot{});
        for (std::size_t p = 0; p < points.size(); ++p) {
            Slot& slot = probe(points[p].operation);
            // Two points of one rank with the same id (a hash collision)
            // cannot be told apart: the id finds neither.
            slot.point = slot.point == kEmpty ? static_cast<std::uint32_t>(p) : kAmbiguous;
            slot.operation = points[p].operation;
        }
    }

    // The point of `operation`, or SyncPointList::kNone when this rank has
    // none (or two).
    std::size_t find(OperationId operation) const {
        if (slots_.empty()) return SyncPointList::kNone;
        for (std::size_t at = operation & mask_;; at = (at + 1) & mask_) {
            const Slot& slot = slots_[at];
            if (slot.point == kEmpty) return SyncPointList::kNone;
            if (slot.operation == operation) return slot.point == kAmbiguous ? SyncPointList::kNone : slot.point;
        }
    }

private:
    static constexpr std::uint32_t kEmpty = 0xffffffffu;
    static constexpr std::uint32_t kAmbiguous = 0xfffffffeu;
    struct Slot {
        OperationId operation = 0;
        std::uint32_t point = kEmpty;
    };
    // The slot that holds `operation`, or the empty one where it goes.
    Slot& probe(OperationId operation) {
        std::size_t at = operation & mask_;
        while (slots_[at].point != kEmpty && slots_[at].operation != operation) at = (at + 1) & mask_;
        return slots_[at];
    }

    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
};

}  // namespace hindsight::analyses
