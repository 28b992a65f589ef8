#include "analyses/delay/cost_shares.hpp"

#include <algorithm>

namespace hindsight::analyses {

Excess excess_over(const SparseProfile& delayer, const SparseProfile& waiter) {
    Excess excess;
    excess.by_entry.assign(delayer.paths.size(), 0.0);
    // Both profiles are sorted by call path: one merge finds the pairs.
    std::size_t w = 0;
    for (std::size_t d = 0; d < delayer.paths.size(); ++d) {
        while (w < waiter.paths.size() && waiter.paths[w] < delayer.paths[d]) ++w;
        const double theirs =
            w < waiter.paths.size() && waiter.paths[w] == delayer.paths[d] ? waiter.values[w] : 0.0;
        excess.by_entry[d] = std::max(delayer.values[d] - theirs, 0.0);
        excess.total += excess.by_entry[d];
    }
    return excess;
}

CostScales cost_scales(double excess_total, double delayer_waiting, double short_cost, const PatternCosts& long_costs) {
    CostScales scales;
    const double denominator = excess_total + delayer_waiting;
    if (!(denominator > 0)) return scales;
    scales.explained = true;
    scales.short_term = short_cost / denominator;
    for (std::size_t p = 0; p < kCostKinds; ++p) scales.long_term[p] = long_costs[p] / denominator;
    return scales;
}

}  // namespace hindsight::analyses
