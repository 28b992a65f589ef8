#include "analyses/critical_path/critical_path_hand_offs.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "common/error.hpp"
#include "replay/chain_marking.hpp"
#include "replay/exchange_records.hpp"

namespace hindsight::analyses {

using trace::EventIndex;
using trace::EventKind;
using trace::EventView;

namespace {

// The Enter of the call that posted receive `recv`: the receive call
// itself, or the MPI_Irecv of a receive completed in a later call. The
// walk hands a Late Receiver's path back there, where the two calls began
// to synchronize.
EventIndex posting_enter(const trace::LocalTrace& trace, EventIndex recv) {
    const EventView view(trace, recv);
    const EventIndex posted = trace.posting_call(view.event());
    return posted == trace::kNoEvent ? view.message().call_enter : posted;
}

}  // namespace

Ticks hand_off_end(const EventView& view, const WaitState& wait, const ForwardFacts& facts) {
    if (view.kind() == EventKind::Recv) {
        const auto polled = facts.polled_wait_ends().find(view.index());
        if (polled != facts.polled_wait_ends().end()) return polled->second;
    }
    return view.wait_start() + wait.waiting;
}

CriticalPathHandOffs::CriticalPathHandOffs(const trace::LocalTrace& trace, const trace::MessageSlots& slots,
                                           const ForwardFacts& facts, std::span<const RmaWait> rma_waits,
                                           EventIndex finish, EventIndex start, std::span<const ThreadDetour> detours)
    : trace_(trace), facts_(facts), rma_waits_(rma_waits), slots_(slots), finish_(finish), start_(start),
      detours_(detours) {}

void CriticalPathHandOffs::find(replay::Exchange& exchange) {
    index_trace();
    find_nodes(asked_back(exchange));
    // A detour returns below its own start, so the earlier ones are known.
    after_detour_.clear();
    for (const ThreadDetour& detour : detours_) after_detour_.push_back(next_node(detour.back));

    const auto ranks = static_cast<std::size_t>(exchange.size());
    replay::RecordLists<Request> requests(ranks);
    for (std::size_t v = 0; v < nodes_.size(); ++v)
        requests[static_cast<std::size_t>(causers_[v])].push_back(requests_[v]);
    const auto answers = replay::ask_ranks<replay::ChainLink>(
        exchange, requests, [&](int from, const Request& request) { return successor(from, request); },
        trace_.anchor_path);
    std::vector<replay::ChainLink> successors(nodes_.size());
    std::vector<std::size_t> taken(ranks, 0);
    for (std::size_t v = 0; v < nodes_.size(); ++v) {
        const auto causer = static_cast<std::size_t>(causers_[v]);
        successors[v] = answers[causer][taken[causer]++];
    }

    const replay::ChainLink first = path_end(exchange);
    replay::ChainMarks marks;
    try {
        marks = replay::mark_chain(exchange, successors, first, trace_.anchor_path);
    } catch (const Error& e) {
        throw Error(e.file(), "the critical path's hand-offs: " + e.problem());
    }
    on_path_ = std::move(marks.marked);
    counts_ = {marks.nodes, static_cast<std::uint64_t>(std::count(on_path_.begin(), on_path_.end(), true)),
               marks.levels, marks.gathered};
    take_arrivals(exchange);
}

// What the other ranks will ask about: this rank's messages by peer and
// slot, its collectives by communicator and ordinal.
void CriticalPathHandOffs::index_trace() {
    const auto ranks = static_cast<std::size_t>(trace_.definitions.mpi_rank_count());
    sends_to_.assign(ranks, {});
    receives_from_.assign(ranks, {});
    for (std::size_t p = 0; p < ranks && p < slots_.sends().size(); ++p) {
        sends_to_[p].assign(slots_.sends()[p], trace::kNoEvent);
        receives_from_[p].assign(slots_.receives()[p], trace::kNoEvent);
    }
    for (std::uint32_t k = 0; k < trace_.messages.size(); ++k) {
        if (slots_.event(k) == trace::kNoEvent) continue;
        auto& by_slot = (slots_.is_send(k) ? sends_to_ : receives_from_).at(static_cast<std::size_t>(slots_.peer(k)));
        by_slot.at(slots_.slot(k)) = slots_.event(k);
    }
    // The collectives are stored in trace order, and each one's event comes
    // right after its call's Enter: no walk over all events.
    collectives_.assign(trace_.definitions.communicators.size(), {});
    EventIndex at = 0;
    for (std::uint32_t c = 0; c < trace_.collectives.size(); ++c) {
        const EventIndex enter = trace_.collectives[c].call_enter;
        if (enter != trace::kNoEvent) at = std::max(at, enter);
        while (at < trace_.events.size() &&
               !(trace_.events[at].kind == EventKind::CollectiveEnd && trace_.events[at].ref == c))
            ++at;
        if (at == trace_.events.size()) throw Error(trace_.anchor_path, "a collective without its event");
        collectives_.at(trace_.collectives[c].comm).push_back(at);
    }
}

// The receives whose receiver gives the path back for the Late Receiver
// wait it caused (it asks for it only within the path's bounds): by sender,
// the slots of the sender's messages to this rank whose receiver asks.
std::vector<std::vector<std::uint32_t>> CriticalPathHandOffs::asked_back(replay::Exchange& exchange) const {
    replay::RecordLists<hand_off_records::PathBack> asking(static_cast<std::size_t>(exchange.size()));
    for (const auto& [recv, caused] : facts_.late_receivers_caused()) {
        if (caused <= 0 || recv <= finish_ || recv >= start_) continue;
        const std::uint32_t message = trace_.events[recv].ref;
        asking.at(static_cast<std::size_t>(slots_.peer(message))).push_back({slots_.slot(message)});
    }
    const auto asked = replay::exchange_records(exchange, asking, trace_.anchor_path);
    std::vector<std::vector<std::uint32_t>> slots(asked.size());
    for (std::size_t r = 0; r < asked.size(); ++r) {
        slots[r].reserve(asked[r].size());
        for (const hand_off_records::PathBack& back : asked[r]) slots[r].push_back(back.slot);
        std::sort(slots[r].begin(), slots[r].end());
    }
    return slots;
}

void CriticalPathHandOffs::find_nodes(const std::vector<std::vector<std::uint32_t>>& asked_back) {
    std::vector<std::vector<int>> members(trace_.definitions.communicators.size());
    std::vector<bool> known(members.size(), false);
    // Only waits hand the path on: far fewer than the events.
    std::vector<std::pair<EventIndex, const WaitState*>> waits;
    facts_.wait_states().for_each_full_state([&](EventIndex i, const WaitState& wait) {
        if (i >= finish_ && i < start_ && wait.waiting > 0 && wait.cause >= 0) waits.emplace_back(i, &wait);
    });
    std::sort(waits.begin(), waits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [i, wait] : waits) {
        const trace::Event& e = trace_.events[i];
        Request request;
        int causer = -1;
        if (e.kind == EventKind::Recv) {
            if (wait->pattern != WaitPattern::LateSender) continue;
            request = {Kind::LateSender, slots_.slot(e.ref), 0, 0, 0};
            causer = slots_.peer(e.ref);
        } else if (e.kind == EventKind::Send) {
            if (wait->pattern != WaitPattern::LateReceiver) continue;
            causer = slots_.peer(e.ref);
            const auto& asking = asked_back.at(static_cast<std::size_t>(causer));
            if (!std::binary_search(asking.begin(), asking.end(), slots_.slot(e.ref))) continue;
            request = {Kind::LateReceiver, slots_.slot(e.ref), 0, 0, 0};
        } else {
            const CommId comm = trace_.collective(e).comm;
            if (!known.at(comm)) {
                members[comm] = trace_.definitions.world_ranks(comm);
                known[comm] = true;
            }
            if (members[comm].empty()) {
                causer = trace_.rank;  // MPI_COMM_SELF-like
            } else if (static_cast<std::size_t>(wait->cause) < members[comm].size()) {
                causer = members[comm][static_cast<std::size_t>(wait->cause)];
            } else {
                throw Error(trace_.anchor_path, "rank " + std::to_string(trace_.rank) + " waited at a collective for rank " +
                                                    std::to_string(wait->cause) + " of a communicator of " +
                                                    std::to_string(members[comm].size()));
            }
            const auto& own = collectives_[comm];
            const auto ordinal = static_cast<std::uint32_t>(std::lower_bound(own.begin(), own.end(), i) - own.begin());
            request = {Kind::Collective, comm, ordinal, 0, 0};
        }
        request.until = hand_off_end(EventView(trace_, i), *wait, facts_);
        nodes_.push_back(i);
        causers_.push_back(causer);
        requests_.push_back(request);
    }
    // A one-sided epoch's wait hands the path on at the Leave of the call
    // that waited, which no other node is.
    const std::size_t messages_and_collectives = nodes_.size();
    for (const RmaWait& wait : rma_waits_) {
        const EventIndex leave = trace_.events[wait.call].ref;
        if (wait.waiting <= 0 || wait.ender < 0 || leave < finish_ || leave >= start_) continue;
        nodes_.push_back(leave);
        causers_.push_back(wait.ender);
        requests_.push_back({Kind::RmaEnding, wait.ender_call, 0, 0, trace_.events[wait.call].time + wait.waiting});
    }
    if (nodes_.size() > messages_and_collectives) sort_nodes();
}

void CriticalPathHandOffs::sort_nodes() {
    std::vector<std::size_t> order(nodes_.size());
    for (std::size_t v = 0; v < order.size(); ++v) order[v] = v;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return nodes_[a] < nodes_[b]; });
    std::vector<EventIndex> nodes;
    std::vector<int> causers;
    std::vector<Request> requests;
    for (const std::size_t v : order) {
        nodes.push_back(nodes_[v]);
        causers.push_back(causers_[v]);
        requests.push_back(requests_[v]);
    }
    nodes_ = std::move(nodes);
    causers_ = std::move(causers);
    requests_ = std::move(requests);
}

// The event of this rank a request from rank `from` names.
CriticalPathHandOffs::Resolved CriticalPathHandOffs::resolve(int from, const Request& request) const {
    const auto missing = [&](const std::string& what) {
        return Error(trace_.anchor_path, "rank " + std::to_string(from) + " hands the critical path on to rank " +
                                             std::to_string(trace_.rank) + " at " + what +
                                             ", which rank " + std::to_string(trace_.rank) + " does not have");
    };
    const auto peer = static_cast<std::size_t>(from);
    switch (request.kind) {
    case Kind::LateSender: {
        if (peer >= sends_to_.size() || request.key >= sends_to_[peer].size())
            throw missing("the send of its message " + std::to_string(request.key));
        const EventIndex send = sends_to_[peer][request.key];
        return {send, send, send + 1};  // a Late Receiver of the same message follows
    }
    case Kind::LateReceiver: {
        if (peer >= receives_from_.size() || request.key >= receives_from_[peer].size())
            throw missing("the receive of its message " + std::to_string(request.key));
        const EventIndex recv = receives_from_[peer][request.key];
        const EventIndex boundary = posting_enter(trace_, recv);
        return {boundary, recv, boundary == trace::kNoEvent ? 0 : boundary};
    }
    case Kind::RmaEnding: {
        // The path arrives where the call that ended the wait began; the
        // nodes below it are the rank's earlier ones.
        const EventIndex enter = request.key;
        if (enter >= trace_.events.size() || trace_.events[enter].kind != EventKind::Enter)
            throw missing("the call that ended its wait in a one-sided epoch (event " + std::to_string(enter) + ")");
        return {enter, enter, enter};
    }
    case Kind::Collective:
        if (request.key >= collectives_.size() || request.ordinal >= collectives_[request.key].size())
            throw missing("collective " + std::to_string(request.ordinal) + " of communicator " +
                          std::to_string(request.key));
        const EventIndex at = collectives_[request.key][request.ordinal];
        // A non-blocking operation held the others up where this rank
        // started it: the path continues inside the starting call (from its
        // Leave back to the start), not through what the rank did until it
        // awaited the operation.
        const EventIndex started = trace_.collective(trace_.events[at]).starting_call;
        if (started != trace::kNoEvent) {
            const EventIndex leave = trace_.events[started].ref;
            return {leave, leave, leave};
        }
        return {at, at, at};
    }
    throw Error(trace_.anchor_path, "rank " + std::to_string(from) + " sent a hand-off of an unknown kind");
}

// Where the path goes after arriving for `request`: this rank's latest node
// below the arrival, or the end.
replay::ChainLink CriticalPathHandOffs::successor(int from, const Request& request) const {
    return next_node(resolve(from, request).below);
}

replay::ChainLink CriticalPathHandOffs::next_node(EventIndex below) const {
    const auto node = static_cast<std::size_t>(std::lower_bound(nodes_.begin(), nodes_.end(), below) - nodes_.begin());
    const auto detour = static_cast<std::size_t>(
        std::lower_bound(detours_.begin(), detours_.end(), below,
                         [](const ThreadDetour& d, EventIndex i) { return d.point < i; }) -
        detours_.begin());
    if (detour > 0 && (node == 0 || detours_[detour - 1].point > nodes_[node - 1])) return after_detour_[detour - 1];
    if (node == 0) return replay::kChainEnd;
    return replay::chain_link(trace_.rank, static_cast<std::uint32_t>(node - 1));
}

// The path ends where the last rank entered the last collective on
// MPI_COMM_WORLD (ties: the lowest rank in its communicator); it begins
// there with that rank's latest node.
replay::ChainLink CriticalPathHandOffs::path_end(replay::Exchange& exchange) {
    const EventView view(trace_, start_);
    const auto enter = static_cast<double>(view.enter().time);
    const double latest = exchange.max_loc(enter).value;
    const std::vector<int> members = trace_.definitions.world_ranks(view.collective().comm);
    const auto own = static_cast<double>(std::find(members.begin(), members.end(), trace_.rank) - members.begin());
    const double tied = enter == latest ? -own : -std::numeric_limits<double>::infinity();
    ends_here_ = exchange.max_loc(tied).rank == exchange.rank();
    if (!ends_here_) return replay::kChainEnd;
    return next_node(start_);
}

// Each hand-off on the path tells its causing rank where the path arrives.
void CriticalPathHandOffs::take_arrivals(replay::Exchange& exchange) {
    replay::RecordLists<Request> told(static_cast<std::size_t>(exchange.size()));
    for (std::size_t v = 0; v < nodes_.size(); ++v)
        if (on_path_[v]) told[static_cast<std::size_t>(causers_[v])].push_back(requests_[v]);
    const auto arriving = replay::exchange_records(exchange, told, trace_.anchor_path);
    for (std::size_t from = 0; from < arriving.size(); ++from)
        for (const Request& request : arriving[from]) {
            const Resolved r = resolve(static_cast<int>(from), request);
            // A receive posted where the trace does not show it: the replay
            // would take the path back after its last event, where it counts
            // for nothing.
            if (r.at == trace::kNoEvent) continue;
            arrivals_.push_back({r.at, std::min(request.until, trace_.events[r.timed].time)});
        }
    std::sort(arrivals_.begin(), arrivals_.end(),
              [](const PathArrival& a, const PathArrival& b) { return a.at < b.at; });
    for (std::size_t k = 1; k < arrivals_.size(); ++k)
        if (arrivals_[k].at == arrivals_[k - 1].at)
            throw Error(trace_.anchor_path, "the critical path arrives twice at event " + std::to_string(arrivals_[k].at) +
                                                " of rank " + std::to_string(trace_.rank));
}

}  // namespace hindsight::analyses
