// What the forward replay learns about each synchronization point, kept for
// the later analyses (communicator profile, critical path, delay costs,
// activity graph): at which events a rank waited, how long, and which rank
// made it wait.
#pragma once

#include <cstdint>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "analyses/patterns.hpp"
#include "common/clock.hpp"
#include "trace/event.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

struct WaitState {
    WaitPattern pattern = WaitPattern::None;
    Ticks waiting = 0;    // length of the wait state
    int cause = -1;       // rank, in the event's communicator, that caused it
    // Whether the event is a synchronization point for the delay analysis
    // (sync_point_list.hpp says which are), and the time its call spent
    // completing the operation once the partners had met (Scalasca's
    // completion time, e.g. the rest of a receive after the send ended).
    bool synchronizes = false;
    Ticks completion = 0;
};

// Whether the delay analysis charges this wait state to a delay, and so can
// pass costs on through it: a wait of a pattern with delay costs
// (patterns.hpp), with a known cause.
inline bool has_delay_costs(const WaitState& wait) {
    return pattern_info(wait.pattern).delay && wait.waiting > 0 && wait.cause >= 0;
}

// Whether the wait counts as waiting, not as the rank's own activity, where
// the backward analyses split a rank's time (patterns.hpp says which do).
inline bool is_synchronization_wait(const WaitState& wait) {
    return has_delay_costs(wait) || (pattern_info(wait.pattern).waiting_without_delay_costs && wait.waiting > 0);
}

// Wait states of one rank, by the index of the communication event (Send,
// Recv or CollectiveEnd) they belong to. Every message and every collective
// the rank took part in is recorded, with waiting 0 where it did not wait;
// those that synchronized the rank with others are marked (synchronizes),
// so that the backward passes can delimit synchronization intervals.
class WaitStateMap {
public:
    // Makes room for every communication event of `trace`, which must
    // outlive the map; binding it again to the same trace keeps what was
    // recorded. Before the first bind() nothing is found.
    void bind(const trace::LocalTrace& trace);
    // Adds or replaces the wait state of `event`, a communication event of
    // the bound trace.
    void record(trace::EventIndex event, WaitState state);
    // nullptr unless a wait state of `event` was recorded.
    const WaitState* find(trace::EventIndex event) const;
    // The same by the event's message (LocalTrace::messages) or collective
    // (LocalTrace::collectives), for a walk over those tables.
    const WaitState* find_message(std::uint32_t message) const;
    const WaitState* find_collective(std::uint32_t collective) const;
    // The recorded states that synchronize their rank with others, by
    // event, in trace order: far fewer than the events, so that whoever
    // needs only these need not walk the trace.
    std::vector<std::pair<trace::EventIndex, const WaitState*>> synchronizing() const;
    // Calls visit(event, state) for every recorded state that holds more
    // than its partner, in no particular order; the others record no
    // waiting, so a sum over the waits need not look at every message.
    template <typename Visit>
    void for_each_full_state(Visit&& visit) const;

private:
    // A rank has a synchronization point at every message and collective,
    // millions of them: they are kept by the event's message or collective
    // index, in the order of the trace, rather than in a hash table (a
    // node-based one spent more time allocating than the forward pass spent
    // finding them; an open-addressing one, kept at most half full, took
    // 100 bytes per entry and a cache miss per access).
    //
    // Most messages synchronize nobody and nobody waits at them: their
    // state says only that the cause would be the partner. Those take a
    // 4-byte mark and share one state per partner rank; the others, and
    // every collective, a slot in a table of full states.
    enum Table : std::size_t { kMessages, kCollectives, kTables, kNone = kTables };
    static Table table_of(trace::EventKind kind);
    static constexpr std::uint32_t kUnrecorded = 0xffffffffu;
    static constexpr std::uint32_t kPartnerOnly = 0xfffffffeu;
    // Whether `state` is the shared state of a message with partner `partner`.
    static bool partner_only(const WaitState& state, int partner);

    const trace::LocalTrace* trace_ = nullptr;
    std::array<std::vector<std::uint32_t>, kTables> slots_;  // by ref: index into states_, or a mark
    std::array<std::vector<WaitState>, kTables> states_;
    std::array<std::vector<trace::EventIndex>, kTables> events_;  // the event of each of states_
    std::vector<WaitState> partner_only_;  // by partner rank
};

template <typename Visit>
void WaitStateMap::for_each_full_state(Visit&& visit) const {
    if (!trace_) return;
    for (std::size_t t = 0; t < kTables; ++t)
        for (std::size_t k = 0; k < states_[t].size(); ++k) {
            const trace::EventIndex event = events_[t][k];
            // A state replaced by one that holds only the partner is gone.
            if (slots_[t][trace_->events[event].ref] == k) visit(event, states_[t][k]);
        }
}

}  // namespace hindsight::analyses
