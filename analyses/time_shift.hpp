// How the master thread's time moves between call paths: found by the
// OpenMP analysis, applied by it and by the MPI delay analysis's intervals.
#pragma once

#include "common/call_tree.hpp"
#include "common/clock.hpp"

namespace hindsight::analyses {

// A stretch of time that the trace's events put at one call path and the
// profile books at another: on a hybrid rank the master's time between its
// fork and its entry into the parallel region, and between its exit and the
// join, is the region's (the team's start and end), not its caller's.
struct TimeShift {
    Ticks begin = 0;
    Ticks end = 0;
    CallPathId from = kNoCallPath;
    CallPathId to = kNoCallPath;
};

}  // namespace hindsight::analyses
