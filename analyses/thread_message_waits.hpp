// The wait states of the messages with an OpenMP worker thread on either
// side, which pairing matched outside the replay
// (replay/thread_message_pairing.hpp), on the thread that sent or received
// each (trace::ThreadStreams::paired), from what pairing told each side of
// the other:
//  - a receive completed by a call that waits for it (not MPI_Test*), the
//    master's or a worker's, waited as a Late Sender from the call's entry
//    until the send's call was entered, at most until the receive's record;
//  - a worker's receive that a polling loop tested for before the call
//    that completed it (polling_calls.hpp) waited, too, inside each polling
//    call before the send's call was entered, at that call's path;
//    of a call that completes several (MPI_Waitall & co.), as in the
//    replay's analysis, only the longest such wait counts;
//  - a blocking send that can wait for its receiver (MPI_Send, MPI_Ssend,
//    message_calls.hpp) and was still running when its receive was posted
//    waited as a Late Receiver from its entry until then;
//  - a Late Sender message sent after a message the same thread received
//    later was received in the wrong order (wrong_order.hpp), among the
//    messages of this kind on that thread: on the master, those the replay
//    measured are apart. The send's call entry stands for its record.
// Their delay costs: delay/thread_points.hpp. Not yet analyzed of these
// messages: the critical path through their waits (doc/analyzer.md, MPI on
// worker threads). A
// master's MPI_Waitall that completed messages of the replay too keeps the
// replay's longest wait only.
#pragma once

#include <vector>

#include "analyses/patterns.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// The wait state of one of these messages on this side: a receive's Late
// Sender, a send's Late Receiver; ticks 0 where it did not wait.
struct MessageWait {
    WaitPattern pattern = WaitPattern::None;
    Ticks ticks = 0;
    // A Late Sender received in the wrong order: behind a message from the
    // same rank or from another.
    enum class Order : std::uint8_t { InOrder, BehindSameSource, BehindOtherSource };
    Order order = Order::InOrder;
    // Of a receive polled for: the parts of `ticks` in its polling calls,
    // each at its call path; the rest is the completing call's.
    struct Part {
        CallPathId cnode = kNoCallPath;
        Ticks ticks = 0;
    };
    std::vector<Part> polls;

    // Calls visit(cnode, ticks) for each part of the wait, `call` the path
    // of the call that completed the message.
    template <typename Visit>
    void for_each_part(CallPathId call, Visit&& visit) const {
        Ticks rest = ticks;
        for (const Part& p : polls) {
            visit(p.cnode, p.ticks);
            rest -= p.ticks;
        }
        if (rest > 0) visit(call, rest);
    }
};
// By trace.threads.paired.
std::vector<MessageWait> thread_message_waits(const trace::LocalTrace& trace);

}  // namespace hindsight::analyses
