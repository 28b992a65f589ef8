// Finds the Enter of an MPI call among a thread's events (the master's
// store, trace::Event, or a worker's, trace::ThreadEvent) by its call path
// and time, for what pairing took out of the store and names by time only
// (trace::ThreadCollectivePart).
#pragma once

#include <algorithm>
#include <cstddef>

#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// The first Enter of `cnode` at `time` (of kind `enter`), else the first
// event from then on (the last event if none); `events` must not be empty.
template <typename Events, typename Kind>
trace::EventIndex call_entry(const Events& events, Kind enter, CallPathId cnode, Ticks time) {
    const auto from = std::partition_point(events.begin(), events.end(),
                                           [&](const auto& e) { return e.time < time; });
    const auto entry = std::find_if(from, events.end(), [&](const auto& e) {
        return e.time > time || (e.kind == enter && e.cnode == cnode);
    });
    const auto at = entry != events.end() && entry->time == time ? entry : from;
    return static_cast<trace::EventIndex>(std::min<std::size_t>(at - events.begin(), events.size() - 1));
}

}  // namespace hindsight::analyses
