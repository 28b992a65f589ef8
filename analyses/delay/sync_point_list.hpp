// The synchronization points of one rank, in trace order, as the delay
// analysis (Böhme et al., TOPC 2016, §5) delimits its synchronization
// intervals with them: a synchronization interval ends at a wait state and
// begins at the previous synchronization point that involved the same ranks.
//
// Which events are synchronization points follows Scalasca's trace analyzer,
// whose reports we reproduce, and the forward pass marks them
// (WaitState::synchronizes):
//  - a receive that waited for its sender (Late Sender), and that send;
//  - a send that waited for its receiver (Late Receiver), and that receive;
//  - a collective, for the ranks it synchronized: every member of a
//    barrier, of MPI_Init and MPI_Finalize and of an n-to-n operation that
//    all members overlapped; otherwise the members that waited and the rank
//    they waited for (collective_wait_states.hpp). Scans are none.
// Messages nobody waited for do not synchronize anybody: a rank may send
// and receive them at any time.
//
// A wait in a one-sided epoch that a partner's call ended (rma_waits.hpp)
// is a point of the waiting rank and of that call's rank, tying the two
// like a Late Sender's receive and send.
//
// On a hybrid rank the master's OpenMP barrier waits are points, too
// (LocalWait): they tie the rank to no other rank, so no interval begins
// there, but an interval that holds one counts its waiting as the rank's
// waiting, not its work, and the costs it explains pass through it.
//
// A message with an OpenMP worker thread on either side (paired outside the
// replay, trace::ThreadStreams::paired) synchronizes the two threads that
// sent and received it, by the same rule (PairedPoint); a collective
// operation such a thread made, the threads that took the members' parts
// (CollectivePartPoint, collective_part_points.hpp). So a point lies on
// one thread of the rank and ties it to threads of other ranks, and an
// interval runs back from a point to the previous one that involved the
// partner's thread (span()):
//  - a worker's point involves the thread it names only;
//  - a master's point that names another master (a message, one-sided
//    epoch or collective of the store) involves that rank's workers, too,
//    where it lies outside parallel regions: the workers idle then, and
//    their next team starts after it; inside a region, only the master;
//  - a worker's history before its current team began is its master's
//    before the fork (TeamStart): where the worker's points in the team do
//    not involve the partner, its interval goes on on the master from the
//    fork back to the master's previous point that does; its time from the
//    fork to its team's begin is the region's (sync_intervals.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "analyses/forward_facts.hpp"
#include "analyses/patterns.hpp"
#include "analyses/rma_waits.hpp"
#include "common/call_tree.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// Names one operation the same way on every rank that took part in it, so
// that ranks can tell each other where their intervals begin: a hash of the
// communicator and the operation's number on it (collectives), or of the
// sender, receiver, communicator, tag and the message's number among the
// synchronizing messages of that channel (point-to-point).
using OperationId = std::uint64_t;

// A thread of a rank: whom a synchronization point ties together.
struct Location {
    int rank = -1;             // world rank
    std::uint32_t thread = 0;  // 0: the master
};

struct SyncPoint {
    trace::EventIndex event = trace::kNoEvent;
    trace::EventIndex enter = trace::kNoEvent;  // the Enter of its MPI call
    CallPathId cnode = kNoCallPath;               // the MPI call's call path
    Ticks wait = 0;                               // this rank's waiting there
    // The call's time minus its completion time: the part of the call that
    // an interval beginning here leaves out (only the completion counts as
    // the rank's activity).
    Ticks prune = 0;
    OperationId operation = 0;
    // A one-sided epoch's wait: its index in RmaWaits::waits; else -1.
    int rma_wait = -1;
    // The thread it lies on, and for a message paired outside the replay
    // its index in trace::ThreadStreams::paired (else -1). Such a point has
    // no event in the store (kNoEvent), and a worker's `enter` indexes its
    // thread's events.
    std::uint32_t thread = 0;
    int paired = -1;
    // A collective operation measured outside the replay: its part's index
    // in trace::ThreadStreams::collective_parts (else -1); no event in the
    // store either.
    int collective = -1;
};

// A synchronization point of a message paired outside the replay, and the
// thread of the other rank it ties this one's to.
struct PairedPoint {
    SyncPoint point;
    Location peer;
};

// A synchronization point of a collective operation measured outside the
// replay, and the threads of the other members it ties this one's to.
struct CollectivePartPoint {
    SyncPoint point;
    std::vector<Location> tied;  // sorted by rank
};

// A worker thread's team began (its TeamBegin, an index into its events)
// after its master forked it (the first event of the master's store at or
// after the fork).
struct TeamStart {
    std::uint32_t thread = 0;
    std::uint32_t begin = 0;
    trace::EventIndex fork = 0;
};

// The points an interval spans, by position: pieces (`first`, `last`]
// (IntervalScanner: piece q ends at point q) on the thread of point `last`,
// which ends the interval, from point `first` (kNone: the start of the
// thread's events) on; for a worker's interval that goes on on the master,
// also the master's pieces (`master_first`, `master_last`], from its point
// `master_first` (kNone: the start) to the fork.
struct IntervalSpan {
    std::size_t first = 0;
    std::size_t last = 0;
    std::size_t master_first = 0;
    std::size_t master_last = 0;
    bool on_master = false;  // the master's pieces belong to it
};

// A wait of a thread of this rank that synchronized it with no other rank:
// the Enter and Leave of the region it waited in (in the store for the
// master, in the thread's events for a worker), and its waiting.
struct LocalWait {
    trace::EventIndex enter = trace::kNoEvent;
    trace::EventIndex leave = trace::kNoEvent;
    Ticks wait = 0;
    std::uint32_t thread = 0;
};

class SyncPointList {
public:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    SyncPointList() = default;
    // `in_parallel`: by call path, whether it lies inside a parallel region
    // (empty for a rank of one thread).
    SyncPointList(const trace::LocalTrace& trace, const ForwardFacts& facts,
                  std::span<const LocalWait> local_waits = {}, const RmaWaits& rma = {},
                  std::span<const PairedPoint> paired = {}, std::span<const CollectivePartPoint> collective_parts = {},
                  std::span<const TeamStart> team_starts = {}, const std::vector<bool>& in_parallel = {});

    // The points of one thread are consecutive, the master's first.
    std::size_t size() const { return points_.size(); }
    const SyncPoint& operator[](std::size_t position) const { return points_[position]; }
    // The position of the synchronization point at the store's `event`, or
    // kNone.
    std::size_t position(trace::EventIndex event) const;
    // The position of the point of the constructor's local_waits[k].
    std::size_t local_wait(std::size_t k) const { return local_waits_[k]; }
    // The interval that ends at the point at `position` and began where its
    // thread last synchronized with `peer`.
    IntervalSpan span(std::size_t position, Location peer) const;
    // The first piece (IntervalScanner) of the interval from point `from`
    // (kNone: the start of the thread of point `to`) to point `to`.
    std::size_t first_piece(std::size_t from, std::size_t to) const {
        return from == kNone ? thread_begin(to) : from + 1;
    }
    // For a worker's team start at `position`: the position of the
    // master's point at the fork it follows; else kNone.
    std::size_t fork_point(std::size_t position) const {
        const auto fork = fork_of_.find(position);
        return fork == fork_of_.end() ? kNone : fork->second;
    }
    // Calls visit(q) for each point inside the span: after its beginning
    // and before its end, on each of its threads.
    template <typename Visit>
    void for_each_inside(const IntervalSpan& span, Visit&& visit) const {
        for (std::size_t q = first_piece(span.first, span.last); q < span.last; ++q) visit(q);
        if (span.on_master)
            for (std::size_t q = first_piece(span.master_first, span.master_last); q <= span.master_last; ++q)
                visit(q);
    }
    // The location the point at `position` ties its thread to where that is
    // one, or of those it ties it to the one on world rank `member`; else
    // the master of `member` (a member of a collective or of a one-sided
    // epoch's group).
    Location partner(std::size_t position, int member) const;

private:
    // Whom a synchronization point tied this rank to.
    enum class Scope : std::uint8_t { Peer, Communicator, Listed, Located, Nobody };
    struct Group {
        Scope scope = Scope::Peer;
        std::uint32_t who = 0;     // world rank, communicator id, index into listed_ or located_
        std::uint32_t thread = 0;  // Peer: the peer's thread
        bool whole_ranks = false;  // a master's, outside parallel regions: involves the peers' workers
    };
    bool involves(const Group& group, Location peer) const;
    // Sorts the points; returns the new position of each point by its old.
    std::vector<std::size_t> order_by_thread_and_time();
    // Adds their points; returns the indices of each start's and its fork's.
    std::vector<std::pair<std::size_t, std::size_t>> add_team_starts(const trace::LocalTrace& trace,
                                                                     std::span<const TeamStart> team_starts);
    // The first position of the thread of the point at `position`.
    std::size_t thread_begin(std::size_t position) const;
    // The last point of the thread of `position` before it that involved
    // `peer`, not before `floor` (kNone: no bound), or kNone.
    std::size_t previous(std::size_t position, Location peer, std::size_t floor) const;
    // The last team start of the worker's point at `position`, or kNone.
    std::size_t team_start(std::size_t position) const;
    Group collective_group(SyncGroup rule, const trace::Collective& coll, int cause);
    const std::vector<int>& sorted_members(CommId comm) const;
    // In communicator rank order; empty for MPI_COMM_SELF-like ones.
    const std::vector<int>& ordered_members(CommId comm);

    std::vector<SyncPoint> points_;                // in the order they happened
    std::vector<Group> groups_;                    // by position
    std::vector<std::pair<trace::EventIndex, std::size_t>> by_event_;  // position by event, sorted
    std::vector<std::vector<int>> listed_;         // sorted world ranks
    std::vector<std::vector<Location>> located_;   // threads of ranks, sorted by rank
    mutable std::vector<std::vector<int>> members_;  // sorted, by communicator, filled when asked
    std::vector<std::vector<int>> ordered_;          // by communicator, filled when asked
    // Where a thread's points begin, by thread, sorted.
    std::vector<std::pair<std::uint32_t, std::size_t>> threads_;
    // The positions of the points that tie a worker to a location, or the
    // master to a worker, by (this rank's thread, rank, thread), ascending:
    // where previous() looks instead of walking back over a thread's
    // points, which rarely involve one such location.
    std::map<std::tuple<std::uint32_t, int, std::uint32_t>, std::vector<std::size_t>> with_threads_;
    // The master's points that involve whole ranks, ascending: where
    // previous() looks for a worker partner among the master's points.
    std::vector<std::size_t> whole_ranks_;
    // The team starts of each worker, ascending, and the master's fork
    // point of each, by the start's position.
    std::map<std::uint32_t, std::vector<std::size_t>> team_starts_;
    std::map<std::size_t, std::size_t> fork_of_;
    std::vector<std::size_t> local_waits_;  // by local wait, its position
    const trace::LocalTrace* trace_ = nullptr;
};

}  // namespace hindsight::analyses
