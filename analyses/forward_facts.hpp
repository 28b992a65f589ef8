// What the forward pass learns about a rank's communication and hands on to
// every later analysis (communicator profile, critical path, delay costs,
// activity graph) and to the analyzer's findings.
//
// The wait-state observers of the forward pass write into one
// ForwardFactsBuilder; once the pass is over, its end-of-pass notes
// included (they hand the senders their Late Receiver waits), the pipeline
// takes the finished ForwardFacts out of the builder. From then on the facts
// only are read: later analyses take them as `const ForwardFacts&`, and
// nothing can change them behind another analysis's back.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analyses/longest_waits.hpp"
#include "analyses/wait_states.hpp"
#include "common/clock.hpp"
#include "trace/event.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// Events whose timestamps contradict the order of the communication: a
// message received before it was sent, a rank leaving a collective before
// the rank it had to wait for entered it. They hint at unsynchronized clocks;
// the analysis clamps the affected wait states to the time actually spent.
struct ClockViolations {
    std::uint64_t point_to_point = 0;
    std::uint64_t collective = 0;
};

class ForwardFacts {
public:
    // This rank's own side of every synchronization point, by the index of
    // its communication event. Conventions:
    //  - receives (Recv events): the Late Sender wait of this rank, or a
    //    zero wait; cause = the sender's rank in the message's communicator.
    //    In a MPI_Waitall-like call that completes several late messages,
    //    only the receive with the longest wait carries it (as the metric).
    //  - sends (Send events): the Late Receiver wait of this rank, which its
    //    receiver tells it at the end of the forward pass, or a zero wait;
    //    cause = the receiver's rank.
    //  - collectives (CollectiveEnd events): the pattern of the operation,
    //    this rank's wait (zero for the ranks that did not wait) and the
    //    communicator rank that everyone waited for (the last to enter, or
    //    the root of 1-to-n operations); cause == own communicator rank
    //    marks the rank that caused the waiting.
    const WaitStateMap& wait_states() const { return wait_states_; }

    // Late Receiver waits this rank caused as the receiver, by the index of
    // its Recv event: how long the sender of that message was blocked
    // waiting for this receive. Known to the receiver right after the
    // forward pass; the sender learns it from the receiver's note.
    const std::unordered_map<trace::EventIndex, Ticks>& late_receivers_caused() const {
        return late_receivers_caused_;
    }

    // This rank's sends with a Late Receiver wait whose receive was posted
    // by an earlier call (MPI_Irecv) than the one completing it, by the
    // index of the Send event: a forward pass cannot answer them before the
    // receive completes (activity_graph.hpp).
    const std::unordered_set<trace::EventIndex>& late_receivers_posted_apart() const {
        return late_receivers_posted_apart_;
    }

    // Collectives at which this rank synchronized with only some members of
    // the communicator (the root of a 1-to-n operation with the members that
    // waited for it; an n-to-n operation that not all ranks overlapped):
    // their world ranks, sorted, by the index of the CollectiveEnd event.
    // Every other collective synchronization point ties the rank to the rank
    // its wait state names as the cause, or to the whole communicator
    // (delay/sync_point_list.hpp).
    const std::unordered_map<trace::EventIndex, std::vector<int>>& partial_groups() const { return partial_groups_; }

    // Where the Late Sender wait of a receive that a polling loop tested for
    // ended (when the send began, at the latest the receive's event), by
    // the index of its Recv event: the wait is spread over the polling
    // calls, so its end does not follow from its length; with it they are
    // split again as they were claimed (PollingCalls::for_each_part).
    const std::unordered_map<trace::EventIndex, Ticks>& polled_wait_ends() const { return polled_wait_ends_; }

    const ClockViolations& clock_violations() const { return clock_violations_; }

    // This rank's longest wait states of each pattern, for the summary.
    const LongestWaits& longest_waits() const { return longest_waits_; }

private:
    friend class ForwardFactsBuilder;

    WaitStateMap wait_states_;
    std::unordered_map<trace::EventIndex, Ticks> late_receivers_caused_;
    std::unordered_set<trace::EventIndex> late_receivers_posted_apart_;
    std::unordered_map<trace::EventIndex, std::vector<int>> partial_groups_;
    std::unordered_map<trace::EventIndex, Ticks> polled_wait_ends_;
    ClockViolations clock_violations_;
    LongestWaits longest_waits_;
};

// Where the forward pass's observers put what they learn (the meaning of
// each part is ForwardFacts'); nobody reads it before finish().
class ForwardFactsBuilder {
public:
    // Makes room for the wait states of every communication event of
    // `trace`, which must outlive the facts (WaitStateMap::bind).
    void bind(const trace::LocalTrace& trace) { facts_.wait_states_.bind(trace); }
    // Adds or replaces the wait state of a communication event.
    void record_wait(trace::EventIndex event, WaitState state) { facts_.wait_states_.record(event, state); }
    void caused_late_receiver(trace::EventIndex recv, Ticks waiting) { facts_.late_receivers_caused_[recv] = waiting; }
    void late_receiver_posted_apart(trace::EventIndex send) { facts_.late_receivers_posted_apart_.insert(send); }
    // The group of a collective that synchronized only some members, to be
    // filled in.
    std::vector<int>& partial_group(trace::EventIndex collective_end) { return facts_.partial_groups_[collective_end]; }
    void polled_wait_end(trace::EventIndex recv, Ticks end) { facts_.polled_wait_ends_[recv] = end; }
    void point_to_point_clock_violation() { ++facts_.clock_violations_.point_to_point; }
    void collective_clock_violation() { ++facts_.clock_violations_.collective; }
    void offer_longest_wait(const WaitInstance& wait) { facts_.longest_waits_.offer(wait); }

    // The facts, once the forward pass (its notes included) is over; the
    // builder is spent.
    ForwardFacts finish() && { return std::move(facts_); }

private:
    ForwardFacts facts_;
};

}  // namespace hindsight::analyses
