// The kinds of long-term delay costs, shared by the MPI delay analysis
// (delay/) and the OpenMP barrier costs it hands over (openmp/).
#pragma once

#include <array>
#include <cstddef>

#include "analyses/patterns.hpp"

namespace hindsight::analyses {

// Long-term costs are kept by the kind of waiting they started from: each
// MPI pattern with delay costs (CostPattern, patterns.hpp), the worker
// idleness during a master's wait in a serial phase, (threads - 1) x its
// waiting (Böhme et al., TOPC 2016, §7.1), and the OpenMP barrier waiting
// that a master's MPI wait inside a parallel region prolonged
// (openmp/barrier_delay.hpp); those two only travel long-term.
inline constexpr std::size_t kOmpIdleCosts = kCostPatterns;
inline constexpr std::size_t kOmpBarrierCosts = kCostPatterns + 1;
inline constexpr std::size_t kCostKinds = kCostPatterns + 2;
using PatternCosts = std::array<double, kCostKinds>;  // by CostPattern, then idleness, barrier waiting

// The metric where long-term costs of `kind` land.
constexpr Metric long_term_metric(std::size_t kind) {
    if (kind == kOmpIdleCosts) return Metric::DelayOmpIdleLongterm;
    if (kind == kOmpBarrierCosts) return Metric::DelayOmpBarrierLongterm;
    return delay_metrics(static_cast<CostPattern>(kind)).long_term;
}

}  // namespace hindsight::analyses
