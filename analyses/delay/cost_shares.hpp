// The arithmetic of delay-cost accounting (Böhme et al., TOPC 2016,
// Algorithm 1, lines 19-29) for one wait state: how its costs divide among
// the call paths in which the delaying rank did more than the waiting rank
// within their synchronization interval, and among the delaying rank's own
// wait states there (whose waiting then propagated).
//
//   Δ(c) = max(p_delayer(c) − p_waiter(c), 0)
//   s    = 1 / (Σ Δ + W),  W = the delayer's waiting in the interval
//   short-term cost of c = γ_short · s · Δ(c)
//   long-term cost of c  = γ_long  · s · Δ(c)
//   each tick of the delayer's waiting gets (γ_short + γ_long) · s as
//   long-term cost of that wait state, to pass on to its own cause
//
// γ_short is the wait's own length, γ_long the waiting it caused further on.
// Long-term costs keep the pattern of the wait state they started from:
// a Late Sender's costs that pass through a barrier wait on their way back
// to the delay are still Late Sender costs (as in Scalasca). So γ_long is
// one value per pattern.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "analyses/cost_kinds.hpp"
#include "analyses/patterns.hpp"
#include "analyses/delay/sync_intervals.hpp"

namespace hindsight::analyses {


// Δ by entry of the delayer's profile, and their sum.
struct Excess {
    std::vector<double> by_entry;
    double total = 0;
};
Excess excess_over(const SparseProfile& delayer, const SparseProfile& waiter);

// The factors s · γ of one wait state's costs.
struct CostScales {
    double short_term = 0;   // γ_short · s
    PatternCosts long_term{};  // γ_long · s, by pattern
    // False when the delayer neither did more than the waiter nor waited
    // (possible only with skewed clocks): then the costs stay with the
    // synchronization point's own call on the delayer.
    bool explained = false;
};
CostScales cost_scales(double excess_total, double delayer_waiting, double short_cost, const PatternCosts& long_costs);

}  // namespace hindsight::analyses
