// How long a member of a collective operation waited in it, and how long it
// took to complete after the operation could end, from the times the
// members' parts tell: shared by the replay's collective wait states and
// those of the operations worker threads made, which pairing measures
// outside the replay (thread_collective_waits.hpp).
#pragma once

#include <algorithm>

#include "common/clock.hpp"

namespace hindsight::analyses {

struct CollectiveTiming {
    Ticks wait = 0;        // from when the member could wait until the awaited member's part began
    Ticks completion = 0;  // from when the first synchronizing member ended (at the earliest that entry) to its end
};

// `wait_start`: from when the member can wait; `end`: its call's end;
// `awaited`: when the part it waited for began; `first_end`: the earliest
// end of the members that synchronized. The awaited entry is clamped to
// the member's end: with skewed clocks it may seem to come later still.
constexpr CollectiveTiming collective_timing(Ticks wait_start, Ticks end, Ticks awaited, Ticks first_end) {
    const Ticks until = std::min(awaited, end);
    // Nobody can leave before the awaited member entered.
    const Ticks completion_start = std::max(first_end, until);
    return {std::max<Ticks>(0, until - wait_start), std::max<Ticks>(0, end - completion_start)};
}

}  // namespace hindsight::analyses
