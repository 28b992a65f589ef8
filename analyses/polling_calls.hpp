// The polling calls of a receive that a polling loop tested for
// (LocalTrace::polling_call): from the first one that tested for it up to
// the call that completed it, every call of MPI_Test, MPI_Testany,
// MPI_Testall, MPI_Testsome, MPI_Iprobe or MPI_Improbe that holds no
// communication event, which is what an unsuccessful test leaves in the
// store (its MPI_REQUEST_TEST records are not kept), and what the collector
// writes for the calls of a polling loop it summed into one region
// (doc/collector.md, "Polling loops"). A successful MPI_Iprobe or
// MPI_Improbe holds no event either; it counts with them.
//
// The time inside these calls before the send began is waiting (a Late
// Sender in polling); the time between them stays the rank's own.
#pragma once

#include <algorithm>
#include <string_view>
#include <vector>

#include "trace/local_trace.hpp"

namespace hindsight::analyses {

class PollingCalls {
public:
    PollingCalls() = default;
    explicit PollingCalls(const trace::LocalTrace& trace) : trace_(&trace) {
        constexpr std::string_view kPolling[] = {"MPI_Test",    "MPI_Testany", "MPI_Testall",
                                                 "MPI_Testsome", "MPI_Iprobe",  "MPI_Improbe"};
        polling_.reserve(trace.call_tree.size());
        for (CallPathId c = 0; c < trace.call_tree.size(); ++c) {
            const Region& region = trace.region_of(c);
            polling_.push_back(region.paradigm == Paradigm::Mpi &&
                               (std::find(std::begin(kPolling), std::end(kPolling), region.name) !=
                                    std::end(kPolling) ||
                                std::find(std::begin(kPolling), std::end(kPolling), region.canonical_name) !=
                                    std::end(kPolling)));
        }
    }

    // Whether call path `c` is a call of a polling function.
    bool polls(CallPathId c) const { return c < polling_.size() && polling_[c]; }

    // Calls visit(enter) for the Enter of each polling call from `first` up
    // to (not including) the completing call's Enter `completing`, in order.
    template <typename Visit>
    void for_each(trace::EventIndex first, trace::EventIndex completing, Visit&& visit) const {
        const auto& events = trace_->events;
        for (trace::EventIndex k = first; k < completing && k < events.size(); ++k) {
            const trace::Event& e = events[k];
            if (e.kind == trace::EventKind::Enter && e.ref == k + 1 && polling_[e.cnode]) visit(k);
        }
    }

    // The waiting inside the polling calls from `first` up to `completing`
    // for a send that began at `send_start`: per call, its time before
    // then. Calls visit(cnode, ticks) for each call that waited.
    template <typename Visit>
    Ticks waiting(trace::EventIndex first, trace::EventIndex completing, Ticks send_start, Visit&& visit) const {
        const auto& events = trace_->events;
        Ticks total = 0;
        // Calls entered once the send began waited no more.
        for (trace::EventIndex k = first; k < completing && k < events.size() && events[k].time < send_start; ++k) {
            const trace::Event& e = events[k];
            if (e.kind != trace::EventKind::Enter || e.ref != k + 1 || !polling_[e.cnode]) continue;
            const Ticks piece = std::min(send_start, events[k + 1].time) - e.time;
            if (piece <= 0) continue;
            visit(e.cnode, piece);
            total += piece;
        }
        return total;
    }

    // The parts of the Late Sender wait of Recv event `recv`, a receive
    // polled for whose wait of `waiting` ended at `wait_end`
    // (ForwardFacts::polled_wait_ends): visit(cnode, ticks) for each
    // polling call that waited, then for the completing call's own wait
    // (the rest), as the wait states claimed them.
    template <typename Visit>
    void for_each_part(trace::EventIndex recv, Ticks wait_end, Ticks waiting, Visit&& visit) const {
        const trace::EventView view(*trace_, recv);
        const trace::EventIndex first = trace_->polling_call(view.event());
        const Ticks polls = first == trace::kNoEvent ? 0 : this->waiting(first, view.enter_index(), wait_end, visit);
        if (waiting > polls) visit(view.cnode(), waiting - polls);
    }

private:
    const trace::LocalTrace* trace_ = nullptr;
    std::vector<bool> polling_;  // by call path
};

}  // namespace hindsight::analyses
