// Time between consecutive events of a rank, and the call path it belongs
// to. The backward analyses measure activities as these gaps: the one after
// event k lasts from events[k].time to events[k + 1].time and belongs to the
// call path in force after event k.
#pragma once

#include <span>

#include "common/call_tree.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// The call path in force right after event `index`: the region just entered,
// the caller of the region just left, or the MPI call holding a
// communication event. kNoCallPath outside every region.
inline CallPathId call_path_after(const trace::LocalTrace& trace, trace::EventIndex index) {
    const trace::Event& e = trace.events[index];
    if (e.kind == trace::EventKind::Leave)
        return e.cnode == kNoCallPath ? kNoCallPath : trace.call_tree.node(e.cnode).parent;
    return e.cnode;
}

// Of an OpenMP worker thread's events (trace::ThreadStreams): the call path
// its time after event `index` counts for until the next; none after its
// team's end, where it idles.
inline CallPathId thread_path_after(const trace::LocalTrace& trace, std::span<const trace::ThreadEvent> events,
                                    std::size_t index) {
    const trace::ThreadEvent& e = events[index];
    switch (e.kind) {
    case trace::ThreadEventKind::Leave:
        return e.cnode == kNoCallPath ? kNoCallPath : trace.call_tree.node(e.cnode).parent;
    case trace::ThreadEventKind::TeamEnd: return kNoCallPath;
    default: return e.cnode;
    }
}

// Ticks as the doubles the backward analyses compute with (exact below 2^53)
// and as the seconds the cube holds.
inline double ticks_to_seconds(const trace::LocalTrace& trace, double ticks) {
    return ticks / static_cast<double>(trace.definitions.clock.ticks_per_second);
}

}  // namespace hindsight::analyses
