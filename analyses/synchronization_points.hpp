// What the forward pass learns about a rank's synchronization points and
// hands on to the backward pass (critical path, delay costs) and to the
// analyzer's summary.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyses/longest_waits.hpp"
#include "analyses/wait_states.hpp"
#include "common/clock.hpp"
#include "trace/event.hpp"

namespace hindsight::analyses {

// Events whose timestamps contradict the order of the communication: a
// message received before it was sent, a rank leaving a collective before
// the rank it had to wait for entered it. They hint at unsynchronized clocks;
// the analysis clamps the affected wait states to the time actually spent.
struct ClockViolations {
    std::uint64_t point_to_point = 0;
    std::uint64_t collective = 0;
};

struct SynchronizationPoints {
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
    WaitStateMap wait_states;

    // Late Receiver waits this rank caused as the receiver, by the index of
    // its Recv event: how long the sender of that message was blocked
    // waiting for this receive. Known to the receiver right after the
    // forward pass; the sender learns it from the receiver's note.
    std::unordered_map<trace::EventIndex, Ticks> late_receivers_caused;

    // This rank's sends with a Late Receiver wait whose receive was posted
    // by an earlier call (MPI_Irecv) than the one completing it, by the
    // index of the Send event: a forward pass cannot answer them before the
    // receive completes (activity_graph.hpp).
    std::unordered_set<trace::EventIndex> late_receivers_posted_apart;

    // Collectives at which this rank synchronized with only some members of
    // the communicator (the root of a 1-to-n operation with the members that
    // waited for it; an n-to-n operation that not all ranks overlapped):
    // their world ranks, sorted, by the index of the CollectiveEnd event.
    // Every other collective synchronization point ties the rank to the rank
    // its wait state names as the cause, or to the whole communicator
    // (sync_point_list.hpp).
    std::unordered_map<trace::EventIndex, std::vector<int>> partial_groups;

    ClockViolations clock_violations;

    // This rank's longest wait states of each pattern, for the summary.
    LongestWaits longest_waits;
};

}  // namespace hindsight::analyses
