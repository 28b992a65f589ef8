// Where the critical path leaves a rank and where it arrives on one: the
// hand-offs of the backward token walk (critical_path.hpp), found for the
// whole trace at once in bulk exchange rounds instead of message by message.
//
// A node is a wait at which the rank holding the path gives it away, when
// the walk reaches it holding the path: between the first collective on
// MPI_COMM_WORLD (inclusive) and the last (exclusive), a wait with a cause
//  - Late Sender at a Recv: to the sender, arriving at its Send event;
//  - Late Receiver at a Send, where the receiver asks for the path back
//    (it caused the wait): to the receiver, taken where its walk reaches
//    the Enter of the call that posted the receive (posting_enter()),
//    positioned at the Recv event;
//  - any wait at a collective: to the member the wait names, at its event
//    of the same collective (the n-th collective of the communicator on
//    every member), or for a non-blocking one at the Leave of the call that
//    started it there;
//  - a one-sided epoch's wait (rma_waits.hpp), at the Leave of the call
//    that waited: to the rank whose call ended it, arriving at that call's
//    Enter;
//  - the master's Late Sender wait for a message of an OpenMP worker thread
//    of another rank, and its wait in a collective operation that such a
//    thread took part in (both measured outside the replay, so that the
//    store holds their calls but not their events), at the Leave of the
//    call that waited: to the rank of the thread it waited for, arriving at
//    the Enter of that thread's call if it is the master's; if a worker's,
//    the path runs back on the worker from the call's entry over the
//    region's barriers, as a detour does, and arrives on the master where
//    the detour comes back (ThreadDetours::from_worker()). A receive that a
//    polling loop waited for, and a worker's own waits where the path runs
//    on the worker, keep their waiting on the path.

// The path arrives at the waiting call's end of the wait: (the call's Enter,
// or where the rank began to wait at a collective) + waiting, for a receive
// polled for where the send began (its wait is spread over the polling
// calls), or the arrival event if earlier.
// On the causing rank it runs backward from the arrival until that rank's
// next node, its successor; a rank without one keeps the path down to its
// first collective on MPI_COMM_WORLD. Where the path makes a detour over
// the rank's OpenMP worker threads (thread_detours.hpp), the nodes the
// master passes meanwhile are not on it: the successor is the next node
// below the detour's return.
//
// Rounds: one all-to-all for the receivers' requests for the path back;
// a request/answer pair for the successors; two max-locations for the
// rank whose entry into the last collective is latest (the path's end);
// the chain marking (replay/chain_marking.hpp); one all-to-all telling the
// causing ranks where the path arrives.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyses/critical_path/hand_off_records.hpp"
#include "analyses/critical_path/thread_detours.hpp"
#include "analyses/forward_facts.hpp"
#include "analyses/rma_waits.hpp"
#include "replay/chain_marking.hpp"
#include "replay/exchange.hpp"
#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::analyses {

// The end of a hand-off wait at `view`, where the path continues on the
// causing rank: a collective's wait is measured from the operation's begin,
// which may come after the call's entry; a receive polled for waited in
// several calls, until the send began (ForwardFacts::polled_wait_ends).
Ticks hand_off_end(const trace::EventView& view, const WaitState& wait, const ForwardFacts& facts);

// Where the path arrives on this rank: the walk takes it at event `at`,
// positioned at `position`.
struct PathArrival {
    trace::EventIndex at = trace::kNoEvent;
    Ticks position = 0;
};

struct CriticalPathCounts {
    std::uint64_t nodes = 0;         // hand-off nodes of all ranks
    std::uint64_t on_path_here = 0;  // this rank's nodes the path passes
    std::uint32_t levels = 0;        // pointer-doubling levels
    bool gathered = false;           // rank 0 followed the chain (replay/chain_marking.hpp)
};

class CriticalPathHandOffs {
public:
    // The path runs between `finish` (the first collective on
    // MPI_COMM_WORLD) and `start` (the last); `detours` are those between
    // the two, sorted. All must outlive this object.
    // `threads`: the rank's OpenMP threads' detours (none in an MPI trace).
    CriticalPathHandOffs(const trace::LocalTrace& trace, const trace::MessageSlots& slots,
                         const ForwardFacts& facts, std::span<const RmaWait> rma_waits, trace::EventIndex finish,
                         trace::EventIndex start, std::span<const ThreadDetour> detours,
                         const ThreadDetours* threads = nullptr);

    // Collective over all ranks: finds the path's hand-offs and arrivals.
    void find(replay::Exchange& exchange);

    // The waits that give the path away when the walk reaches them holding
    // it, sorted; whether the path passes node v (an index into them).
    std::span<const trace::EventIndex> nodes() const { return nodes_; }
    bool passes(std::size_t v) const { return on_path_[v]; }
    // Where the wait at node v ended: the walk hands the path on there.
    Ticks wait_end(std::size_t v) const { return requests_[v].until; }
    // Where the walk takes the path, sorted by event.
    std::span<const PathArrival> arrivals() const { return arrivals_; }
    // The worker threads' stretches of the path that arrived on them along
    // their MPI operations (the master takes it back at an arrival).
    std::span<const ThreadStretch> worker_stretches() const { return worker_stretches_; }
    // Whether the path ends on this rank (it entered the last collective
    // last), and so starts the backward walk here.
    bool ends_here() const { return ends_here_; }
    const CriticalPathCounts& counts() const { return counts_; }

private:
    using Kind = hand_off_records::Kind;
    using Request = hand_off_records::Request;  // what a node asks of its causing rank
    // A request resolved on the causing rank: the walk takes the path at
    // event `at`, positioned at most at the time of event `timed`, and
    // passes it on at the latest node before event `below`. Where the path
    // arrives on a worker thread, it takes it where `detour` comes back.
    struct Resolved {
        trace::EventIndex at = trace::kNoEvent;
        trace::EventIndex timed = trace::kNoEvent;
        trace::EventIndex below = 0;
        std::optional<ThreadDetour> detour;
    };

    void index_trace();
    // The master's waits for the threads of other ranks measured outside
    // the replay (trace::ThreadStreams::paired and collective_parts).
    void find_thread_nodes();
    // Where the path arrives for the operation of this rank's `thread` whose
    // call began at `enter` (an Enter of the master's store, kNoEvent for a
    // worker's) and `time`.
    Resolved arrive_at_thread(std::uint32_t thread, trace::EventIndex enter, Ticks time) const;
    std::vector<std::vector<std::uint32_t>> asked_back(replay::Exchange& exchange) const;
    void find_nodes(const std::vector<std::vector<std::uint32_t>>& asked_back);
    Resolved resolve(int from, const Request& request) const;
    replay::ChainLink successor(int from, const Request& request) const;
    // Into event order, after the nodes of one-sided epochs' waits joined.
    void sort_nodes();
    // The node the walk reaches first below event `below` holding the path:
    // the latest one, unless a detour lies between (then the one below its
    // return); kChainEnd for none.
    replay::ChainLink next_node(trace::EventIndex below) const;
    replay::ChainLink path_end(replay::Exchange& exchange);
    void take_arrivals(replay::Exchange& exchange);

    const trace::LocalTrace& trace_;
    const ForwardFacts& facts_;
    std::span<const RmaWait> rma_waits_;
    const trace::MessageSlots& slots_;
    trace::EventIndex finish_, start_;
    std::span<const ThreadDetour> detours_;
    const ThreadDetours* threads_;
    std::vector<replay::ChainLink> after_detour_;  // by detour: next_node() below its return
    // This rank's sends paired outside the replay by their name, and its
    // parts in the collectives of worker threads by (communicator,
    // position): indices into trace::ThreadStreams::paired and
    // collective_parts.
    std::unordered_map<std::uint64_t, std::uint32_t> paired_sends_;
    std::map<std::pair<CommId, std::uint32_t>, std::uint32_t> collective_parts_;

    // Lookups for the other ranks' requests: events by the peer's world
    // rank and slot, collective events by communicator and ordinal.
    std::vector<std::vector<trace::EventIndex>> sends_to_, receives_from_, collectives_;

    std::vector<trace::EventIndex> nodes_;  // sorted
    std::vector<int> causers_;              // by node: world rank
    std::vector<Request> requests_;         // by node
    std::vector<bool> on_path_;             // by node
    std::vector<PathArrival> arrivals_;     // sorted by `at`
    std::vector<ThreadStretch> worker_stretches_;
    bool ends_here_ = false;
    CriticalPathCounts counts_;
};

}  // namespace hindsight::analyses
