// The kinds of long-term delay costs, shared by the MPI delay analysis
// (delay/) and the OpenMP barrier costs it hands over (openmp/).
#pragma once

#include <array>
#include <cstddef>

#include "analyses/patterns.hpp"

namespace hindsight::analyses {

// Long-term costs are kept by the kind of waiting they started from: each
// MPI pattern with delay costs (CostPattern, patterns.hpp), and the worker
// idleness during a master's wait in a serial phase, (threads - 1) x its
// waiting (Böhme et al., TOPC 2016, §7.1), which only travels long-term.
inline constexpr std::size_t kOmpIdleCosts = kCostPatterns;
inline constexpr std::size_t kCostKinds = kCostPatterns + 1;
using PatternCosts = std::array<double, kCostKinds>;  // by CostPattern, then idleness

// The metric where long-term costs of `kind` land.
constexpr Metric long_term_metric(std::size_t kind) {
    return kind == kOmpIdleCosts ? Metric::DelayOmpIdleLongterm
                                 : delay_metrics(static_cast<CostPattern>(kind)).long_term;
}

}  // namespace hindsight::analyses
