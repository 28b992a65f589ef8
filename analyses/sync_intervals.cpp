#include "analyses/sync_intervals.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "analyses/event_gaps.hpp"
#include "common/error.hpp"

namespace hindsight {

using replay::EventIndex;
using replay::EventKind;
using replay::EventView;

namespace {

// Members of the communicators this rank uses, as world ranks; looked up at
// every message, so kept by communicator id.
class Membership {
public:
    explicit Membership(const replay::LocalTrace& trace)
        : trace_(&trace), comms_(trace.definitions.communicators.size() + 1) {}

    // World rank of communicator rank `rank`.
    int world_rank(CommId comm, int rank) { return of(comm).ordered.at(static_cast<std::size_t>(rank)); }
    bool holds(CommId comm, int world_rank) {
        const auto& m = of(comm).sorted;
        return std::binary_search(m.begin(), m.end(), world_rank);
    }
    // Whether every member of `inner` is a member of `outer`.
    bool includes(CommId outer, CommId inner) {
        const auto key = std::make_pair(outer, inner);
        const auto it = includes_.find(key);
        if (it != includes_.end()) return it->second;
        const auto& o = of(outer).sorted;
        const auto& i = of(inner).sorted;
        return includes_[key] = std::includes(o.begin(), o.end(), i.begin(), i.end());
    }

private:
    struct Members {
        bool known = false;
        std::vector<int> ordered;  // in communicator-rank order
        std::vector<int> sorted;
    };
    // Communicators without a definition share the last slot: like
    // MPI_COMM_SELF they hold this rank only.
    Members& of(CommId comm) {
        Members& m = comms_[std::min<std::size_t>(comm, comms_.size() - 1)];
        if (!m.known) {
            m.ordered = trace_->definitions.world_ranks(comm);
            if (m.ordered.empty()) m.ordered.push_back(trace_->rank);  // MPI_COMM_SELF
            m.sorted = m.ordered;
            std::sort(m.sorted.begin(), m.sorted.end());
            m.known = true;
        }
        return m;
    }

    const replay::LocalTrace* trace_;
    std::vector<Members> comms_;  // by communicator id
    std::map<std::pair<CommId, CommId>, bool> includes_;
};

// The event after which an interval that starts at synchronization point
// `index` begins: the end of its MPI call.
EventIndex after_call(const replay::LocalTrace& trace, EventIndex index) {
    const EventIndex leave = EventView(trace, index).leave_index();
    return leave == replay::kNoEvent ? index : leave;
}

}  // namespace

SyncIntervals::SyncIntervals(const replay::LocalTrace& trace)
    : message_begin_(trace.messages.size(), 0), collective_begin_(trace.collectives.size(), 0) {
    Membership members(trace);
    // The last message with each peer, by the peer's world rank.
    std::vector<EventIndex> last_message(static_cast<std::size_t>(std::max(trace.definitions.mpi_rank_count(), 0)),
                                         replay::kNoEvent);
    std::vector<std::pair<CommId, EventIndex>> last_collective;  // by communicator, in order of use

    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const replay::Event& e = trace.events[i];
        if (e.kind == EventKind::Send || e.kind == EventKind::Recv) {
            const replay::Message& msg = trace.message(e);
            const int peer = members.world_rank(msg.comm, msg.partner);
            if (peer < 0 || static_cast<std::size_t>(peer) >= last_message.size())
                throw Error(trace.anchor_path, "a message names world rank " + std::to_string(peer) +
                                                   ", which the trace does not define");
            EventIndex& last = last_message[static_cast<std::size_t>(peer)];
            EventIndex begin = 0;
            if (last != replay::kNoEvent) begin = after_call(trace, last);
            for (const auto& [comm, index] : last_collective)
                if (members.holds(comm, peer)) begin = std::max(begin, after_call(trace, index));
            message_begin_[e.ref] = begin;
            last = i;
        } else if (e.kind == EventKind::CollectiveEnd) {
            const CommId comm = trace.collective(e).comm;
            EventIndex begin = 0;
            bool known = false;
            for (auto& [other, index] : last_collective) {
                if (members.includes(other, comm)) begin = std::max(begin, after_call(trace, index));
                if (other == comm) {
                    index = i;
                    known = true;
                }
            }
            collective_begin_[e.ref] = begin;
            if (!known) last_collective.emplace_back(comm, i);
        }
    }
}

SyncIntervals::Range SyncIntervals::range(const EventView& view) const {
    const EventIndex first = view.kind() == EventKind::CollectiveEnd
                                 ? collective_begin_[view.event().ref]
                                 : message_begin_[view.event().ref];
    const EventIndex enter = view.enter_index();
    const EventIndex last = enter == replay::kNoEvent ? view.index() : enter;
    return {first, std::max(first, last)};
}

void IntervalScanner::add(CallPathId cnode, double ticks) {
    if (cnode == kNoCallPath) return;
    if (cnode >= dense_.size()) dense_.resize(cnode + std::size_t{1}, 0.0);
    if (dense_[cnode] == 0.0) touched_.push_back(cnode);
    dense_[cnode] += ticks;
    // A call path whose sum returns to exactly zero is listed twice.
}

IntervalProfile IntervalScanner::scan(const replay::LocalTrace& trace, const WaitStateMap& waits,
                                      SyncIntervals::Range range) {
    IntervalProfile out;
    for (EventIndex k = range.first; k < range.last; ++k) {
        const replay::Event& e = trace.events[k];
        add(call_path_after(trace, k), static_cast<double>(trace.events[k + 1].time - e.time));
        if (k == range.first) continue;
        if (e.kind != EventKind::Send && e.kind != EventKind::Recv &&
            e.kind != EventKind::CollectiveEnd)
            continue;
        const WaitState* wait = waits.find(k);
        if (!wait || !has_delay_costs(*wait)) continue;
        const auto ticks = static_cast<double>(wait->waiting);
        add(e.cnode, -ticks);
        out.waiting += ticks;
        out.waits.emplace_back(k, ticks);
    }
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (const CallPathId c : touched_) {
        if (dense_[c] > 0) {
            out.processing.paths.push_back(c);
            out.processing.values.push_back(dense_[c]);
        }
        dense_[c] = 0.0;
    }
    touched_.clear();
    return out;
}

}  // namespace hindsight
