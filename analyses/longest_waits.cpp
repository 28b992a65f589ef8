#include "analyses/longest_waits.hpp"

namespace hindsight::analyses {

void LongestWaits::offer(const WaitInstance& wait) {
    if (wait.waiting <= 0) return;
    Kept& kept = by_pattern_[static_cast<std::size_t>(wait.pattern)];
    if (kept.size == kPerPattern && kept.waits[kPerPattern - 1].waiting >= wait.waiting) return;
    // Insertion into a short sorted array: shift the shorter ones down.
    std::size_t at = kept.size < kPerPattern ? kept.size++ : kPerPattern - 1;
    while (at > 0 && kept.waits[at - 1].waiting < wait.waiting) {
        kept.waits[at] = kept.waits[at - 1];
        --at;
    }
    kept.waits[at] = wait;
}

std::vector<WaitInstance> LongestWaits::kept() const {
    std::vector<WaitInstance> all;
    for (const Kept& kept : by_pattern_) all.insert(all.end(), kept.waits.begin(), kept.waits.begin() + kept.size);
    return all;
}

}  // namespace hindsight::analyses
