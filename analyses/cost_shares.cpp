#include "analyses/cost_shares.hpp"

#include <algorithm>

namespace hindsight {

CostShares share_costs(const SparseProfile& delayer, double delayer_waiting,
                       const SparseProfile& waiter, double short_cost, double long_cost) {
    CostShares shares;
    const std::size_t n = delayer.paths.size();
    std::vector<double> excess(n, 0.0);
    double excess_sum = 0;
    // Both profiles are sorted by call path: one merge finds the pairs.
    std::size_t w = 0;
    for (std::size_t d = 0; d < n; ++d) {
        while (w < waiter.paths.size() && waiter.paths[w] < delayer.paths[d]) ++w;
        const double theirs =
            w < waiter.paths.size() && waiter.paths[w] == delayer.paths[d] ? waiter.values[w] : 0.0;
        excess[d] = std::max(delayer.values[d] - theirs, 0.0);
        excess_sum += excess[d];
    }
    const double denominator = excess_sum + delayer_waiting;
    if (!(denominator > 0)) return shares;

    const double scale = 1.0 / denominator;
    shares.explained = true;
    shares.short_term.resize(n);
    shares.long_term.resize(n);
    for (std::size_t d = 0; d < n; ++d) {
        shares.short_term[d] = short_cost * scale * excess[d];
        shares.long_term[d] = long_cost * scale * excess[d];
    }
    shares.per_waiting_tick = (short_cost + long_cost) * scale;
    shares.indirect = short_cost * scale * delayer_waiting;
    return shares;
}

}  // namespace hindsight
