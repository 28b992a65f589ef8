#include "analyses/wait_states.hpp"

#include <bit>

namespace hindsight {

std::size_t WaitStateMap::home(replay::EventIndex event) const {
    // Fibonacci hashing spreads the near-consecutive event indices of
    // neighbouring synchronization points over the table.
    const std::uint64_t mixed = static_cast<std::uint64_t>(event) * 0x9E3779B97F4A7C15ull;
    return static_cast<std::size_t>(mixed >> (64 - std::countr_zero(slots_.size())));
}

void WaitStateMap::grow(std::size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    size_ = 0;
    for (const Slot& s : old)
        if (s.event != replay::kNoEvent) record(s.event, s.state);
}

void WaitStateMap::reserve(std::size_t events) {
    const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(2 * events, 16));
    if (capacity > slots_.size()) grow(capacity);
}

void WaitStateMap::record(replay::EventIndex event, WaitState state) {
    if (2 * (size_ + 1) > slots_.size()) grow(std::max<std::size_t>(2 * slots_.size(), 16));
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home(event);; i = (i + 1) & mask) {
        Slot& slot = slots_[i];
        if (slot.event == event) {
            slot.state = state;
            return;
        }
        if (slot.event == replay::kNoEvent) {
            slot = {event, state};
            ++size_;
            return;
        }
    }
}

const WaitState* WaitStateMap::find(replay::EventIndex event) const {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home(event);; i = (i + 1) & mask) {
        const Slot& slot = slots_[i];
        if (slot.event == event) return &slot.state;
        if (slot.event == replay::kNoEvent) return nullptr;
    }
}

}  // namespace hindsight
