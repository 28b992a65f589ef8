// The arithmetic of delay-cost accounting (Böhme et al., TOPC 2016,
// Algorithm 1, lines 19-29) for one wait state: how its costs divide among
// the call paths in which the delaying rank did more than the waiting rank
// within their synchronization interval, and among the delaying rank's own
// wait states there (whose waiting then propagated).
//
//   Δ(c) = max(p_delayer(c) − p_waiter(c), 0)
//   s    = 1 / (Σ Δ + waiting of the delayer in the interval)
//   short-term cost of c = γ_short · s · Δ(c)
//   long-term cost of c  = γ_long  · s · Δ(c)
//   each tick of the delayer's waiting gets (γ_short + γ_long) · s as
//   long-term cost of that wait state, to pass on to its own cause
//
// γ_short is the wait's own length, γ_long the waiting it caused further on.
// The shares add up to γ_short + γ_long.
#pragma once

#include <vector>

#include "analyses/sync_intervals.hpp"

namespace hindsight {

struct CostShares {
    std::vector<double> short_term;  // by entry of the delayer's profile
    std::vector<double> long_term;   // by entry of the delayer's profile
    double per_waiting_tick = 0;     // long-term cost per tick of the delayer's waiting
    // The part of the wait itself that the delayer's waiting explains: the
    // wait's indirect part.
    double indirect = 0;
    // False when the delayer neither did more than the waiter nor waited
    // (possible only with skewed clocks or unequal interval starts): then
    // nothing above is set, and the costs stay with the synchronization
    // point's own call on the delayer.
    bool explained = false;
};

CostShares share_costs(const SparseProfile& delayer, double delayer_waiting,
                       const SparseProfile& waiter, double short_cost, double long_cost);

}  // namespace hindsight
