// Seconds of the trace builder's default clock, for expectations written in
// the ticks of a scenario.
#pragma once

#include "common/clock.hpp"

namespace hindsight::testing {

// Seconds that `ticks` last on the builder's default clock (1 ns ticks).
inline double ns(Ticks ticks) { return static_cast<double>(ticks) * 1e-9; }

}  // namespace hindsight::testing
