// Which single wait states get a window in the timeline: the longest of
// each pattern over all ranks, as the summary lists them. Each rank keeps
// its own longest waits in the forward pass (longest_waits.hpp); every rank
// learns all of them and picks the same windows, so that each can cut its
// lane of every window without asking anyone.
#pragma once

#include <cstddef>
#include <vector>

#include "analyses/longest_waits.hpp"
#include "common/clock.hpp"
#include "replay/exchange.hpp"

namespace hindsight::analyses {

struct TimelineWindow {
    int rank = 0;    // whose wait it is
    WaitInstance wait;
    Ticks from = 0;  // the wait with a margin of half its length on each side
    Ticks to = 0;
};

// The `per_pattern` longest waits of each pattern among all ranks' kept
// waits (`by_rank[r]`: rank r's LongestWaits::kept()), in pattern order,
// each pattern's longest first; of equal waits the earlier, then the one of
// the lower rank.
std::vector<TimelineWindow> choose_windows(const std::vector<std::vector<WaitInstance>>& by_rank,
                                           std::size_t per_pattern);

// Every rank's kept waits, by rank, on every rank (collective).
std::vector<std::vector<WaitInstance>> share_waits(replay::Exchange& exchange, const std::vector<WaitInstance>& mine);

}  // namespace hindsight::analyses
