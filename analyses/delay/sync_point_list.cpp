#include "analyses/delay/sync_point_list.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "analyses/operation_hash.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using trace::EventIndex;
using trace::EventKind;
using trace::EventView;

namespace {

int comm_rank_of(const std::vector<int>& members, int world_rank) {
    const auto it = std::find(members.begin(), members.end(), world_rank);
    return it == members.end() ? -1 : static_cast<int>(it - members.begin());
}

}  // namespace

SyncPointList::SyncPointList(const trace::LocalTrace& trace, const ForwardFacts& facts,
                             std::span<const LocalWait> local_waits, const RmaWaits& rma,
                             std::span<const PairedPoint> paired,
                             std::span<const CollectivePartPoint> collective_parts,
                             std::span<const TeamStart> team_starts, const std::vector<bool>& in_parallel)
    : members_(trace.definitions.communicators.size()), ordered_(trace.definitions.communicators.size()),
      trace_(&trace) {
    // Every collective's number on its communicator (the collectives are
    // stored in trace order), and numbers of synchronizing messages so far
    // per channel (sender, receiver, communicator, tag).
    std::vector<std::uint64_t> collectives_on(trace.definitions.communicators.size() + 1, 0);
    std::vector<std::uint64_t> collective_number(trace.collectives.size());
    for (std::size_t c = 0; c < trace.collectives.size(); ++c)
        collective_number[c] = ++collectives_on[std::min<std::size_t>(trace.collectives[c].comm, collectives_on.size() - 1)];
    using Channel = std::tuple<int, int, CommId, std::uint32_t>;
    std::map<Channel, std::uint64_t> messages_on;
    // Consecutive messages mostly use one channel, or two in turn (a rank's
    // sends to a peer and its receives from it): the two channels used last
    // spare most lookups (map entries stay where they are).
    std::array<std::map<Channel, std::uint64_t>::iterator, 2> recent{messages_on.end(), messages_on.end()};
    const auto count_on = [&](const Channel& channel) -> std::uint64_t& {
        if (recent[0] != messages_on.end() && recent[0]->first == channel) return recent[0]->second;
        if (recent[1] == messages_on.end() || recent[1]->first != channel)
            recent[1] = messages_on.try_emplace(channel, 0).first;
        std::swap(recent[0], recent[1]);
        return recent[0]->second;
    };

    // Only the synchronizing states, not every event: far fewer.
    const auto synchronizing = facts.wait_states().synchronizing();
    points_.reserve(synchronizing.size());
    groups_.reserve(synchronizing.size());
    for (const auto& [i, state] : synchronizing) {
        const trace::Event& e = trace.events[i];
        const EventView view(trace, i);
        SyncPoint point;
        point.event = i;
        point.enter = view.enter_index() == trace::kNoEvent ? i : view.enter_index();
        // A receive that kept its sender waiting synchronized when it was
        // posted: for one completed in a later call, at the MPI_Irecv.
        if (e.kind == EventKind::Recv && facts.late_receivers_caused().contains(i) &&
            trace.posting_call(e) != trace::kNoEvent)
            point.enter = trace.posting_call(e);
        // Likewise a non-blocking collective held the others up where this
        // rank started it, unless the rank itself waited for them later:
        // what it did until it awaited the operation delayed nobody there.
        // None of the starting call is the operation's completion.
        const bool held_up_at_start = e.kind == EventKind::CollectiveEnd && state->waiting <= 0 &&
                                      trace.collective(e).starting_call != trace::kNoEvent;
        if (held_up_at_start) point.enter = trace.collective(e).starting_call;
        // A receive whose message a blocking probe waited for began to wait
        // in the probe, which is all waiting: the next interval begins with
        // the receive call.
        const bool waited_in_probe = e.kind == EventKind::Recv && state->pattern == WaitPattern::LateSender &&
                                     trace.probing_call(e) != trace::kNoEvent;
        if (waited_in_probe) point.enter = trace.probing_call(e);
        // One that a polling loop waited for began to wait in its first
        // polling call; of what follows, the waiting in the polling calls
        // (and the completing call) is left out, the time between them is
        // the rank's own.
        const EventIndex poll = e.kind == EventKind::Recv && state->pattern == WaitPattern::LateSender && !waited_in_probe
                                    ? trace.polling_call(e)
                                    : trace::kNoEvent;
        const auto wait_end = facts.polled_wait_ends().find(i);
        const bool waited_in_polling = poll != trace::kNoEvent && wait_end != facts.polled_wait_ends().end() &&
                                       wait_end->second > trace.events[poll].time;
        if (waited_in_polling) point.enter = poll;
        point.cnode = trace.events[point.enter].cnode;
        point.wait = state->waiting;
        const EventIndex leave = trace.events[point.enter].kind == EventKind::Enter ? trace.events[point.enter].ref
                                                                                   : trace::kNoEvent;
        const Ticks duration = leave == trace::kNoEvent ? 0 : trace.events[leave].time - trace.events[point.enter].time;
        point.prune = held_up_at_start || waited_in_probe ? duration
                      : waited_in_polling                 ? state->waiting
                                                          : std::max<Ticks>(0, duration - state->completion);

        Group group;
        if (e.kind == EventKind::CollectiveEnd) {
            const trace::Collective& coll = trace.collective(e);
            const CommId comm = coll.comm;
            point.operation = OperationHash().add(1).add(comm).add(collective_number[e.ref]).value();
            const auto listed = facts.partial_groups().find(i);
            if (listed != facts.partial_groups().end()) {
                group = {Scope::Listed, static_cast<std::uint32_t>(listed_.size())};
                listed_.push_back(listed->second);
            } else {
                group = collective_group(shape_info(collective_shape(coll.op)).sync_group, coll, state->cause);
            }
        } else {
            const trace::Message& msg = trace.message(e);
            const std::vector<int>& ordered = ordered_members(msg.comm);
            const int peer = msg.partner >= 0 && static_cast<std::size_t>(msg.partner) < ordered.size()
                                 ? ordered[static_cast<std::size_t>(msg.partner)]
                                 : msg.partner;
            if (peer < 0) throw Error(trace.anchor_path, "a message names no valid partner rank");
            const bool sends = e.kind == EventKind::Send;
            const int sender = sends ? trace.rank : peer;
            const int receiver = sends ? peer : trace.rank;
            const auto channel = std::make_tuple(sender, receiver, msg.comm, static_cast<std::uint32_t>(msg.tag));
            point.operation = OperationHash()
                                  .add(2)
                                  .add(static_cast<std::uint64_t>(sender))
                                  .add(static_cast<std::uint64_t>(receiver))
                                  .add(msg.comm)
                                  .add(msg.tag)
                                  .add(count_on(channel)++)
                                  .value();
            group = {Scope::Peer, static_cast<std::uint32_t>(peer)};
        }
        points_.push_back(point);
        groups_.push_back(group);
    }
    // A local wait: no record ever names its operation, but it gets one of
    // its own so that it collides with no synchronization's. The master's
    // is found by its Leave (position()); a worker's has no event in the
    // store.
    const std::size_t local_from = points_.size();
    for (const LocalWait& local : local_waits) {
        SyncPoint point;
        point.thread = local.thread;
        point.event = local.thread == 0 ? local.leave : trace::kNoEvent;
        point.enter = local.enter;
        point.cnode = local.thread == 0 ? trace.events[local.enter].cnode
                                        : trace.threads.threads[local.thread].events[local.enter].cnode;
        point.wait = local.wait;
        point.operation = OperationHash().add(3).add(local.thread).add(local.leave).value();
        points_.push_back(point);
        groups_.push_back({Scope::Nobody, 0});
    }
    // A one-sided epoch's wait and the call that ended it share the id of
    // that call. The wait's point is the Leave of the call that waited (its
    // Enter may be the point of a call that ended a partner's wait); of
    // that call only the waiting is left out, the rest is the rank's own.
    // The ending call, like a send, is the synchronization itself.
    const auto ending = [](int rank, EventIndex call) {
        return OperationHash().add(4).add(static_cast<std::uint64_t>(rank)).add(call).value();
    };
    for (std::size_t w = 0; w < rma.waits.size(); ++w) {
        const RmaWait& wait = rma.waits[w];
        SyncPoint point;
        point.event = trace.events[wait.call].ref;
        point.enter = wait.call;
        point.cnode = trace.events[wait.call].cnode;
        point.wait = wait.waiting;
        point.prune = wait.waiting;
        point.operation = ending(wait.ender, wait.ender_call);
        point.rma_wait = static_cast<int>(w);
        points_.push_back(point);
        groups_.push_back({Scope::Peer, static_cast<std::uint32_t>(wait.ender)});
    }
    for (const RmaDelay& delay : rma.delays) {
        if (delay.call >= trace.events.size() || trace.events[delay.call].kind != EventKind::Enter)
            throw Error(trace.anchor_path, "a one-sided epoch's wait names no call of rank " +
                                               std::to_string(trace.rank) + " as the one that ended it");
        SyncPoint point;
        point.event = delay.call;
        point.enter = delay.call;
        point.cnode = trace.events[delay.call].cnode;
        point.prune = trace.events[trace.events[delay.call].ref].time - trace.events[delay.call].time;
        point.operation = ending(trace.rank, delay.call);
        points_.push_back(point);
        groups_.push_back({Scope::Listed, static_cast<std::uint32_t>(listed_.size())});
        listed_.push_back(delay.waiters);
    }
    // The store's points, all the master's, that synchronized it with other
    // masters outside parallel regions synchronized their workers too.
    for (std::size_t p = 0; p < points_.size(); ++p)
        groups_[p].whole_ranks = groups_[p].scope != Scope::Nobody &&
                                 !(points_[p].cnode < in_parallel.size() && in_parallel[points_[p].cnode]);
    for (const PairedPoint& p : paired) {
        points_.push_back(p.point);
        groups_.push_back({Scope::Peer, static_cast<std::uint32_t>(p.peer.rank), p.peer.thread, false});
    }
    for (const CollectivePartPoint& p : collective_parts) {
        points_.push_back(p.point);
        groups_.push_back({Scope::Located, static_cast<std::uint32_t>(located_.size()), 0, false});
        located_.push_back(p.tied);
    }
    const std::vector<std::pair<std::size_t, std::size_t>> starts = add_team_starts(trace, team_starts);
    // Sorted, each point is found where it moved.
    const std::vector<std::size_t> moved = order_by_thread_and_time();
    for (std::size_t k = 0; k < local_waits.size(); ++k) local_waits_.push_back(moved[local_from + k]);
    for (const auto& [start, fork] : starts) {
        const std::size_t at = moved[start];
        team_starts_[points_[at].thread].push_back(at);
        fork_of_[at] = moved[fork];
    }
    for (auto& [thread, positions] : team_starts_) std::sort(positions.begin(), positions.end());
    by_event_.reserve(points_.size());
    for (std::size_t p = 0; p < points_.size(); ++p) {
        if (points_[p].event != trace::kNoEvent) by_event_.emplace_back(points_[p].event, p);
        if (threads_.empty() || threads_.back().first != points_[p].thread) threads_.emplace_back(points_[p].thread, p);
        const Group& group = groups_[p];
        if (group.scope == Scope::Peer && (points_[p].thread != 0 || group.thread != 0))
            with_threads_[{points_[p].thread, static_cast<int>(group.who), group.thread}].push_back(p);
        if (group.scope == Scope::Located)
            for (const Location& tied : located_[group.who])
                if (points_[p].thread != 0 || tied.thread != 0)
                    with_threads_[{points_[p].thread, tied.rank, tied.thread}].push_back(p);
        if (points_[p].thread == 0 && group.whole_ranks) whole_ranks_.push_back(p);
    }
    if (!std::is_sorted(by_event_.begin(), by_event_.end())) std::sort(by_event_.begin(), by_event_.end());
}

// Each worker's team start and the fork it follows are points that tie
// nobody (no wait, no operation anybody names): where the worker's
// interval turns to the master's.
std::vector<std::pair<std::size_t, std::size_t>> SyncPointList::add_team_starts(
    const trace::LocalTrace& trace, std::span<const TeamStart> team_starts) {
    std::vector<std::pair<std::size_t, std::size_t>> starts;  // (start, fork) by index before sorting
    std::map<trace::EventIndex, std::size_t> forks;
    for (const TeamStart& t : team_starts) {
        if (t.thread == 0 || t.thread >= trace.threads.size() ||
            t.begin >= trace.threads.threads[t.thread].events.size() || t.fork >= trace.events.size())
            continue;
        auto [fork, added] = forks.try_emplace(t.fork, points_.size());
        if (added) {
            SyncPoint point;
            point.enter = t.fork;
            point.cnode = trace.events[t.fork].cnode;
            point.operation = OperationHash().add(6).add(t.fork).value();
            points_.push_back(point);
            groups_.push_back({Scope::Nobody, 0, 0, false});
        }
        SyncPoint point;
        point.thread = t.thread;
        point.enter = t.begin;
        point.cnode = trace.threads.threads[t.thread].events[t.begin].cnode;
        point.operation = OperationHash().add(7).add(t.thread).add(t.begin).value();
        starts.emplace_back(points_.size(), fork->second);
        points_.push_back(point);
        groups_.push_back({Scope::Nobody, 0, 0, false});
    }
    return starts;
}

std::vector<std::size_t> SyncPointList::order_by_thread_and_time() {
    // By thread, each in the order the synchronizations happened: a receive
    // posted by an MPI_Irecv synchronized there, before the events up to
    // its completion, and so did a non-blocking collective where it was
    // started. Traces without such receives or worker threads are in that
    // order already.
    // Of two points of one call, the one at its entry comes first: a call
    // that ended a partner's one-sided wait there (any MPI call, for a wait
    // for progress) may also be a synchronization at its end (a collective,
    // a receive), and the delay before it is what the partner waited for.
    // A message paired outside the replay has no event (kNoEvent): it
    // comes after the store's points of its call.
    const auto anchor = [](const SyncPoint& p) {
        return std::tuple(p.thread, std::min(p.event, p.enter), p.event);
    };
    std::vector<std::size_t> moved(points_.size());
    for (std::size_t p = 0; p < moved.size(); ++p) moved[p] = p;
    if (std::is_sorted(points_.begin(), points_.end(),
                       [&](const SyncPoint& a, const SyncPoint& b) { return anchor(a) < anchor(b); }))
        return moved;
    std::vector<std::size_t> order = moved;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return anchor(points_[a]) < anchor(points_[b]); });
    std::vector<SyncPoint> ordered_points;
    std::vector<Group> ordered_groups;
    ordered_points.reserve(points_.size());
    ordered_groups.reserve(points_.size());
    for (std::size_t at = 0; at < order.size(); ++at) {
        moved[order[at]] = at;
        ordered_points.push_back(points_[order[at]]);
        ordered_groups.push_back(groups_[order[at]]);
    }
    points_ = std::move(ordered_points);
    groups_ = std::move(ordered_groups);
    return moved;
}

// Whom the shape's rule ties a member of `coll` that synchronized to: the
// rank it waited for (or that waited for it), `cause` in communicator ranks,
// or for a member that was itself the cause, the root where the rule says
// so; else every member of the communicator.
SyncPointList::Group SyncPointList::collective_group(SyncGroup rule, const trace::Collective& coll, int cause) {
    int otherwise = -1;  // in communicator ranks; -1: every member
    switch (rule) {
    case SyncGroup::Members: return {Scope::Communicator, coll.comm};
    case SyncGroup::PartnerElseMembers: break;
    case SyncGroup::PartnerElseRoot: otherwise = coll.root; break;
    }
    const std::vector<int>& ordered = ordered_members(coll.comm);
    const int self = comm_rank_of(ordered, trace_->rank);
    const int partner = cause != self ? cause : otherwise;
    if (partner >= 0 && static_cast<std::size_t>(partner) < ordered.size())
        return {Scope::Peer, static_cast<std::uint32_t>(ordered[static_cast<std::size_t>(partner)])};
    return {Scope::Communicator, coll.comm};
}

const std::vector<int>& SyncPointList::ordered_members(CommId comm) {
    if (comm >= ordered_.size()) ordered_.resize(std::size_t{comm} + 1);
    std::vector<int>& m = ordered_[comm];
    if (m.empty()) m = trace_->definitions.world_ranks(comm);
    return m;
}

const std::vector<int>& SyncPointList::sorted_members(CommId comm) const {
    if (comm >= members_.size()) members_.resize(std::size_t{comm} + 1);
    std::vector<int>& m = members_[comm];
    if (m.empty()) {
        m = trace_->definitions.world_ranks(comm);
        if (m.empty()) m.push_back(trace_->rank);  // MPI_COMM_SELF-like
        std::sort(m.begin(), m.end());
    }
    return m;
}

bool SyncPointList::involves(const Group& group, Location peer) const {
    switch (group.scope) {
    case Scope::Peer:
        return static_cast<int>(group.who) == peer.rank &&
               (group.thread == peer.thread || (group.thread == 0 && group.whole_ranks));
    case Scope::Communicator: {
        const std::vector<int>& m = sorted_members(group.who);
        return (peer.thread == 0 || group.whole_ranks) && std::binary_search(m.begin(), m.end(), peer.rank);
    }
    case Scope::Listed: {
        const std::vector<int>& m = listed_[group.who];
        return (peer.thread == 0 || group.whole_ranks) && std::binary_search(m.begin(), m.end(), peer.rank);
    }
    case Scope::Located: {
        const std::vector<Location>& m = located_[group.who];
        return std::any_of(m.begin(), m.end(),
                           [&](const Location& l) { return l.rank == peer.rank && l.thread == peer.thread; });
    }
    case Scope::Nobody: return false;
    }
    return false;
}

std::size_t SyncPointList::position(EventIndex event) const {
    const auto it = std::lower_bound(by_event_.begin(), by_event_.end(), std::make_pair(event, std::size_t{0}));
    return it != by_event_.end() && it->first == event ? it->second : kNone;
}

std::size_t SyncPointList::previous(std::size_t position, Location peer, std::size_t floor) const {
    const std::uint32_t thread = points_[position].thread;
    std::size_t found = kNone;
    const auto later = [&](std::size_t p) {
        if (p != kNone && (found == kNone || p > found)) found = p;
    };
    if (thread != 0 || peer.thread != 0) {
        // The points that name this pair of threads.
        const auto named = with_threads_.find({thread, peer.rank, peer.thread});
        if (named != with_threads_.end()) {
            const std::vector<std::size_t>& at = named->second;
            const auto it = std::lower_bound(at.begin(), at.end(), position);
            if (it != at.begin()) later(*std::prev(it));
        }
    }
    if (thread == 0 && peer.thread == 0) {
        // The master's points come first; most tie it to other masters.
        for (std::size_t p = position; p-- > 0;)
            if (involves(groups_[p], peer)) {
                later(p);
                break;
            }
    } else if (thread == 0) {
        // A worker partner: the master's points with its master outside
        // parallel regions, too.
        const auto end = std::lower_bound(whole_ranks_.begin(), whole_ranks_.end(), position);
        for (auto it = end; it != whole_ranks_.begin();)
            if (const std::size_t p = *--it; involves(groups_[p], peer)) {
                later(p);
                break;
            }
    }
    return floor != kNone && found != kNone && found <= floor ? kNone : found;
}

IntervalSpan SyncPointList::span(std::size_t position, Location peer) const {
    IntervalSpan span;
    span.last = position;
    if (points_[position].thread == 0) {
        span.first = previous(position, peer, kNone);
        return span;
    }
    const std::size_t start = team_start(position);
    span.first = previous(position, peer, start);
    if (span.first != kNone || start == kNone) return span;
    // Not since the team began: from there, and before on the master.
    span.first = start;
    const auto fork = fork_of_.find(start);
    if (fork == fork_of_.end()) return span;
    span.on_master = true;
    span.master_last = fork->second;
    span.master_first = previous(fork->second, peer, kNone);
    return span;
}

std::size_t SyncPointList::team_start(std::size_t position) const {
    const auto starts = team_starts_.find(points_[position].thread);
    if (starts == team_starts_.end()) return kNone;
    const auto it = std::lower_bound(starts->second.begin(), starts->second.end(), position);
    return it == starts->second.begin() ? kNone : *std::prev(it);
}

std::size_t SyncPointList::thread_begin(std::size_t position) const {
    const auto it = std::upper_bound(threads_.begin(), threads_.end(), std::pair(points_[position].thread, kNone));
    return std::prev(it)->second;
}

Location SyncPointList::partner(std::size_t position, int member) const {
    const Group& group = groups_[position];
    if (group.scope == Scope::Peer) return {static_cast<int>(group.who), group.thread};
    if (group.scope == Scope::Located)
        for (const Location& tied : located_[group.who])
            if (tied.rank == member) return tied;
    return {member, 0};
}

}  // namespace hindsight::analyses
