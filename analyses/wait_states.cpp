#include "analyses/wait_states.hpp"

#include <algorithm>

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

bool WaitStateMap::partner_only(const WaitState& state, int partner) {
    return state.pattern == WaitPattern::None && !state.synchronizes && state.waiting == 0 &&
           state.completion == 0 && state.cause == partner && partner >= 0;
}

void WaitStateMap::bind(const trace::LocalTrace& trace) {
    if (trace_ == &trace) return;
    trace_ = &trace;
    const std::array<std::size_t, kTables> sizes{trace.messages.size(), trace.collectives.size()};
    for (std::size_t t = 0; t < kTables; ++t) {
        slots_[t].assign(sizes[t], kUnrecorded);
        states_[t].clear();
        events_[t].clear();
    }
    partner_only_.clear();
}

void WaitStateMap::record(trace::EventIndex event, WaitState state) {
    if (!trace_ || event >= trace_->events.size())
        throw Error("", "a wait state recorded for an event outside the analyzed trace");
    const trace::Event& e = trace_->events[event];
    const Table t = table_of(e.kind);
    if (t == kNone) throw Error(trace_->anchor_path, "a wait state recorded for an event that does not communicate");
    std::uint32_t& slot = slots_[t][e.ref];
    if (t == kMessages && partner_only(state, trace_->message(e).partner)) {
        const auto partner = static_cast<std::size_t>(state.cause);
        while (partner_only_.size() <= partner)
            partner_only_.push_back({WaitPattern::None, 0, static_cast<int>(partner_only_.size())});
        slot = kPartnerOnly;
        return;
    }
    if (slot == kUnrecorded || slot == kPartnerOnly) {
        if (states_[t].size() >= kPartnerOnly) throw Error(trace_->anchor_path, "too many wait states on one rank");
        slot = static_cast<std::uint32_t>(states_[t].size());
        states_[t].push_back(state);
        events_[t].push_back(event);
    } else {
        states_[t][slot] = state;
    }
}

const WaitState* WaitStateMap::find(trace::EventIndex event) const {
    if (!trace_ || event >= trace_->events.size()) return nullptr;
    const trace::Event& e = trace_->events[event];
    switch (table_of(e.kind)) {
    case kMessages: return find_message(e.ref);
    case kCollectives: return find_collective(e.ref);
    default: return nullptr;
    }
}

const WaitState* WaitStateMap::find_message(std::uint32_t message) const {
    if (!trace_ || message >= slots_[kMessages].size()) return nullptr;
    const std::uint32_t slot = slots_[kMessages][message];
    if (slot == kUnrecorded) return nullptr;
    if (slot == kPartnerOnly) return &partner_only_[static_cast<std::size_t>(trace_->messages[message].partner)];
    return &states_[kMessages][slot];
}

const WaitState* WaitStateMap::find_collective(std::uint32_t collective) const {
    if (!trace_ || collective >= slots_[kCollectives].size()) return nullptr;
    const std::uint32_t slot = slots_[kCollectives][collective];
    return slot == kUnrecorded ? nullptr : &states_[kCollectives][slot];
}

std::vector<std::pair<trace::EventIndex, const WaitState*>> WaitStateMap::synchronizing() const {
    std::vector<std::pair<trace::EventIndex, const WaitState*>> out;
    for_each_full_state([&](trace::EventIndex event, const WaitState& state) {
        if (state.synchronizes) out.emplace_back(event, &state);
    });
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
}

}  // namespace hindsight::analyses
