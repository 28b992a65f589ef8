#include "analyses/wait_states.hpp"

#include "common/error.hpp"

namespace hindsight::analyses {

WaitStateMap::Table WaitStateMap::table_of(trace::EventKind kind) {
    switch (kind) {
    case trace::EventKind::Send:
    case trace::EventKind::Recv: return kMessages;
    case trace::EventKind::CollectiveEnd: return kCollectives;
    default: return kNone;
    }
}

void WaitStateMap::bind(const trace::LocalTrace& trace) {
    if (trace_ == &trace) return;
    trace_ = &trace;
    if (!kept_) return;
    const std::array<std::size_t, kTables> sizes{trace.messages.size(), trace.collectives.size()};
    for (std::size_t t = 0; t < kTables; ++t) {
        states_[t].assign(sizes[t], WaitState{});
        recorded_[t].assign(sizes[t], false);
    }
}

void WaitStateMap::record(trace::EventIndex event, WaitState state) {
    if (!kept_) return;
    if (!trace_ || event >= trace_->events.size())
        throw Error("", "a wait state recorded for an event outside the analyzed trace");
    const trace::Event& e = trace_->events[event];
    const Table t = table_of(e.kind);
    if (t == kNone) throw Error(trace_->anchor_path, "a wait state recorded for an event that does not communicate");
    recorded_[t][e.ref] = true;
    states_[t][e.ref] = state;
}

const WaitState* WaitStateMap::find(trace::EventIndex event) const {
    if (!kept_ || !trace_ || event >= trace_->events.size()) return nullptr;
    const trace::Event& e = trace_->events[event];
    const Table t = table_of(e.kind);
    return t != kNone && recorded_[t][e.ref] ? &states_[t][e.ref] : nullptr;
}

}  // namespace hindsight::analyses
