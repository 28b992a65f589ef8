// The few longest wait states of one rank, per pattern, with where and when
// they happened, so that the summary can point at them in a timeline. The
// report holds waiting summed per call path; single instances would be
// millions, so each rank keeps only a fixed number per pattern as the
// forward pass finds them (a comparison per wait state, no allocation once
// full).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyses/patterns.hpp"
#include "common/call_tree.hpp"
#include "common/clock.hpp"

namespace hindsight::analyses {

struct WaitInstance {
    WaitPattern pattern = WaitPattern::None;
    CallPathId cnode = kNoCallPath;  // the MPI call that waited
    Ticks start = 0;                 // when the wait began (the call's or operation's entry)
    Ticks waiting = 0;
    std::uint32_t thread = 0;        // the rank's thread that waited (0: the master)
};

class LongestWaits {
public:
    static constexpr std::size_t kPerPattern = 10;

    // Keeps `wait` if it is among the kPerPattern longest of its pattern so
    // far (the earlier of equal waits stays).
    void offer(const WaitInstance& wait);
    // The kept waits, by pattern, each pattern's longest first.
    std::vector<WaitInstance> kept() const;

private:
    struct Kept {
        std::array<WaitInstance, kPerPattern> waits{};  // longest first
        std::size_t size = 0;
    };
    std::array<Kept, kWaitPatternCount> by_pattern_{};
};

}  // namespace hindsight::analyses
