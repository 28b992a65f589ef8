// What the wait states of one-sided epochs (rma_epoch_wait_states.hpp,
// rma_lock_wait_states.hpp) share: the calls of an epoch as spans of time,
// where an epoch waited, and the notes its two sides send each other in
// bulk, as bytes.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "analyses/local_cube.hpp"
#include "analyses/note_blocks.hpp"
#include "replay/exchange.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// A call as the epochs need it.
struct CallSpan {
    trace::EventIndex enter = trace::kNoEvent;
    Ticks begin = 0;
    Ticks end = 0;
    CallPathId cnode = 0;
};

inline CallSpan call_span(const trace::LocalTrace& trace, trace::EventIndex enter) {
    const trace::Event& e = trace.events[enter];
    return {enter, e.time, trace.events[e.ref].time, e.cnode};
}

// Strictly inside the call: it was running at `t`.
inline bool inside(Ticks t, const CallSpan& call) { return t > call.begin && t < call.end; }

// The metrics of one pattern of epoch waits, each below its parent: a wait
// in a synchronization call, and one in a transfer.
struct EpochWaitMetrics {
    Metric sync_parent;
    Metric sync;
    Metric transfer_parent;
    Metric transfer;
};

// An epoch that waited until `until` waited in its call running then, from
// that call's entry: its closing or opening synchronization call, else a
// transfer call on `window` between the two (one call runs at a time).
// Books the wait under `metrics` and returns that call; none if no call of
// the epoch ran then.
std::optional<CallSpan> book_epoch_wait(LocalCube& cube, const trace::LocalTrace& trace, const CallSpan& open,
                                        const CallSpan& close, std::uint64_t window, Ticks until,
                                        const EpochWaitMetrics& metrics);

}  // namespace hindsight::analyses
