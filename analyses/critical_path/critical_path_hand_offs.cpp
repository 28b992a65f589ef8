#include "analyses/critical_path/critical_path_hand_offs.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "analyses/call_entry.hpp"
#include "analyses/paired_message_name.hpp"
#include "analyses/thread_collective_waits.hpp"
#include "analyses/thread_message_waits.hpp"
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
                                           EventIndex finish, EventIndex start, std::span<const ThreadDetour> detours,
                                           const ThreadDetours* threads)
    : trace_(trace), facts_(facts), rma_waits_(rma_waits), slots_(slots), finish_(finish), start_(start),
      detours_(detours), threads_(threads) {}

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
    const auto& paired = trace_.threads.paired;
    for (std::uint32_t i = 0; i < paired.size(); ++i)
        if (paired[i].send) paired_sends_.emplace(paired_message_name(trace_, paired[i], true), i);
    const auto& parts = trace_.threads.collective_parts;
    for (std::uint32_t i = 0; i < parts.size(); ++i)
        collective_parts_.emplace(std::pair(parts[i].comm, parts[i].position), i);
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
    find_thread_nodes();
    if (nodes_.size() > messages_and_collectives) sort_nodes();
}

void CriticalPathHandOffs::find_thread_nodes() {
    const auto& paired = trace_.threads.paired;
    const auto& parts = trace_.threads.collective_parts;
    if (paired.empty() && parts.empty()) return;
    // The master's call entered at `enter` waited until request.until.
    const auto add = [&](EventIndex enter, int causer, Request request) {
        if (enter >= trace_.events.size() || trace_.events[enter].kind != EventKind::Enter || causer < 0) return;
        const EventIndex leave = trace_.events[enter].ref;
        if (leave <= finish_ || leave >= start_) return;
        request.until = std::clamp(request.until, trace_.events[enter].time, trace_.events[leave].time);
        nodes_.push_back(leave);
        causers_.push_back(causer);
        requests_.push_back(request);
    };
    const std::vector<MessageWait> waits = thread_message_waits(trace_);
    for (std::size_t i = 0; i < paired.size(); ++i) {
        const trace::ThreadPairedMessage& m = paired[i];
        const MessageWait& wait = waits[i];
        const bool late_sender = wait.pattern == WaitPattern::LateSender && wait.ticks > 0;
        if (m.thread != 0 || m.send || !late_sender || !wait.polls.empty()) continue;
        const std::uint64_t name = paired_message_name(trace_, m, true);
        add(m.call, m.peer,
            {Kind::ThreadMessage, static_cast<std::uint32_t>(name), static_cast<std::uint32_t>(name >> 32), 0,
             m.send_call_enter});
    }
    const std::vector<CollectivePartWait> part_waits = thread_collective_waits(trace_);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const trace::ThreadCollectivePart& part = parts[i];
        const CollectivePartWait& wait = part_waits[i];
        if (part.thread != 0 || wait.pattern == WaitPattern::None || wait.timing.wait <= 0 || wait.awaited < 0 ||
            trace_.events.empty())
            continue;
        const std::vector<int> members = trace_.definitions.world_ranks(part.comm);
        if (static_cast<std::size_t>(wait.awaited) >= members.size()) continue;
        const int causer = members[static_cast<std::size_t>(wait.awaited)];
        if (causer == trace_.rank) continue;
        add(call_entry(trace_.events, EventKind::Enter, part.cnode, part.call_enter), causer,
            {Kind::ThreadCollective, part.comm, part.position, 0,
             std::max(part.arrival, part.call_enter) + wait.timing.wait});
    }
}

void CriticalPathHandOffs::sort_nodes() {
    std::vector<std::size_t> order(nodes_.size());
    for (std::size_t v = 0; v < order.size(); ++v) order[v] = v;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return nodes_[a] < nodes_[b]; });
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
    // One node per event: a call that waited for several threads' messages
    // hands the path on once, where it first found one.
    std::size_t kept = 0;
    for (std::size_t v = 0; v < nodes_.size(); ++v) {
        if (kept > 0 && nodes_[kept - 1] == nodes_[v]) continue;
        nodes_[kept] = nodes_[v];
        causers_[kept] = causers_[v];
        requests_[kept] = requests_[v];
        ++kept;
    }
    nodes_.resize(kept);
    causers_.resize(kept);
    requests_.resize(kept);
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
        return {send, send, send + 1, std::nullopt};  // a Late Receiver of the same message follows
    }
    case Kind::LateReceiver: {
        if (peer >= receives_from_.size() || request.key >= receives_from_[peer].size())
            throw missing("the receive of its message " + std::to_string(request.key));
        const EventIndex recv = receives_from_[peer][request.key];
        const EventIndex boundary = posting_enter(trace_, recv);
        return {boundary, recv, boundary == trace::kNoEvent ? 0 : boundary, std::nullopt};
    }
    case Kind::RmaEnding: {
        // The path arrives where the call that ended the wait began; the
        // nodes below it are the rank's earlier ones.
        const EventIndex enter = request.key;
        if (enter >= trace_.events.size() || trace_.events[enter].kind != EventKind::Enter)
            throw missing("the call that ended its wait in a one-sided epoch (event " + std::to_string(enter) + ")");
        return {enter, enter, enter, std::nullopt};
    }
    case Kind::ThreadMessage: {
        const auto found = paired_sends_.find(request.key | (std::uint64_t{request.ordinal} << 32));
        if (found == paired_sends_.end()) throw missing("the send of a message with an OpenMP worker thread");
        const trace::ThreadPairedMessage& m = trace_.threads.paired[found->second];
        return arrive_at_thread(m.thread, m.thread == 0 ? m.call : trace::kNoEvent, m.call_enter);
    }
    case Kind::ThreadCollective: {
        const auto found = collective_parts_.find({request.key, request.ordinal});
        if (found == collective_parts_.end())
            throw missing("collective " + std::to_string(request.ordinal) + " of communicator " +
                          std::to_string(request.key) + " with an OpenMP worker thread");
        const trace::ThreadCollectivePart& part = trace_.threads.collective_parts[found->second];
        const EventIndex enter = part.thread == 0 && !trace_.events.empty()
                                     ? call_entry(trace_.events, EventKind::Enter, part.cnode, part.call_enter)
                                     : trace::kNoEvent;
        return arrive_at_thread(part.thread, enter, part.arrival);
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
            return {leave, leave, leave, std::nullopt};
        }
        return {at, at, at, std::nullopt};
    }
    throw Error(trace_.anchor_path, "rank " + std::to_string(from) + " sent a hand-off of an unknown kind");
}

CriticalPathHandOffs::Resolved CriticalPathHandOffs::arrive_at_thread(std::uint32_t thread, EventIndex enter,
                                                                      Ticks time) const {
    if (thread == 0 && enter < trace_.events.size()) return {enter, enter, enter, std::nullopt};
    if (std::optional<ThreadDetour> detour = threads_ ? threads_->from_worker(thread, time) : std::nullopt) {
        const EventIndex back = detour->back;
        return {back, back, back, std::move(detour)};
    }
    // A region whose detours cannot be followed: the path goes on on the
    // master, from its last call entry or exit at that time.
    const auto after = std::partition_point(trace_.events.begin(), trace_.events.end(),
                                            [&](const trace::Event& e) { return e.time <= time; });
    for (auto k = static_cast<EventIndex>(after - trace_.events.begin()); k-- > 0;)
        if (trace_.events[k].kind == EventKind::Enter || trace_.events[k].kind == EventKind::Leave)
            return {k, k, k, std::nullopt};
    return {};
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
            if (r.detour) {
                // Arrived on a worker: the master takes the path back where
                // the worker's way back over the region comes to it.
                arrivals_.push_back({r.at, r.detour->position});
                worker_stretches_.insert(worker_stretches_.end(), r.detour->stretches.begin(),
                                         r.detour->stretches.end());
                continue;
            }
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
