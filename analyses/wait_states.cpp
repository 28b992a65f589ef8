#include "analyses/wait_states.hpp"

#include "common/error.hpp"

namespace hindsight {

void WaitStateMap::bind(const replay::LocalTrace& trace) {
    if (trace_ == &trace) return;
    trace_ = &trace;
    by_message_.assign(trace.messages.size(), WaitState{});
    by_collective_.assign(trace.collectives.size(), WaitState{});
    recorded_message_.assign(trace.messages.size(), false);
    recorded_collective_.assign(trace.collectives.size(), false);
    size_ = 0;
}

void WaitStateMap::record(replay::EventIndex event, WaitState state) {
    if (!trace_ || event >= trace_->events.size())
        throw Error("", "a wait state recorded for an event outside the analyzed trace");
    const replay::Event& e = trace_->events[event];
    std::vector<bool>* recorded = nullptr;
    WaitState* target = nullptr;
    switch (e.kind) {
    case replay::EventKind::Send:
    case replay::EventKind::Recv:
        recorded = &recorded_message_;
        target = &by_message_[e.ref];
        break;
    case replay::EventKind::CollectiveEnd:
        recorded = &recorded_collective_;
        target = &by_collective_[e.ref];
        break;
    default:
        throw Error(trace_->anchor_path, "a wait state recorded for an event that does not communicate");
    }
    if (!(*recorded)[e.ref]) {
        (*recorded)[e.ref] = true;
        ++size_;
    }
    *target = state;
}

const WaitState* WaitStateMap::find(replay::EventIndex event) const {
    if (!trace_ || event >= trace_->events.size()) return nullptr;
    const replay::Event& e = trace_->events[event];
    switch (e.kind) {
    case replay::EventKind::Send:
    case replay::EventKind::Recv:
        return recorded_message_[e.ref] ? &by_message_[e.ref] : nullptr;
    case replay::EventKind::CollectiveEnd:
        return recorded_collective_[e.ref] ? &by_collective_[e.ref] : nullptr;
    default:
        return nullptr;
    }
}

}  // namespace hindsight
