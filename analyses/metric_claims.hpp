// Pattern metrics are parts of broader metrics (Late Sender time is part of
// the point-to-point time, Late Sender counts part of the receive counts).
// Because the cube holds each metric's own share, recording a pattern moves
// its value out of the broader metric's share into the pattern's; done at
// each detection, the split stays exact whichever analysis runs first.
#pragma once

#include "analyses/local_cube.hpp"
#include "analyses/patterns.hpp"
#include "common/time_category.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

inline void claim(LocalCube& cube, Metric whole, Metric part, CallPathId cnode, double value) {
    cube.add(part, cnode, value);
    cube.add(whole, cnode, -value);
}

// A wait-state time pattern: taken from the time class of the call path's
// region (e.g. MPI_Recv: point-to-point), where the profile put that time.
inline void claim_time(LocalCube& cube, const trace::LocalTrace& trace, Metric part,
                       CallPathId cnode, Ticks span) {
    claim(cube, time_category(trace.region_of(cnode)), part, cnode, trace.seconds(span));
}

// A point-to-point wait state's count: taken from the receives' (or sends')
// synchronizations or communications, as its message carried no bytes or some.
inline void claim_message_count(LocalCube& cube, WaitPattern pattern, CallPathId cnode, bool zero_bytes) {
    const PatternInfo& row = pattern_info(pattern);
    const Metric count = zero_bytes ? row.point_to_point->synchronizations : row.point_to_point->communications;
    claim(cube, *info(count).parent, count, cnode, 1.0);
}

}  // namespace hindsight::analyses
