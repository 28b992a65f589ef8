// The messages with an OpenMP worker thread on either side, which pairing
// matched outside the replay (replay/thread_message_pairing.hpp), booked on
// the thread that sent or received each (trace::ThreadStreams::paired):
//  - a master's message counts there (synchronization or communication,
//    and its bytes), since it left the store the forward pass counts; a
//    worker's counts in the worker's profile (thread_profile.hpp);
//  - a receive completed by a call that waits for it (not MPI_Test*), the
//    master's or a worker's, waited as a Late Sender from the call's entry
//    until the send's call was entered, at most until the receive's record;
//    of a call that completes several (MPI_Waitall & co.), as in the
//    replay's analysis, only the longest such wait counts;
//  - a blocking send that can wait for its receiver (MPI_Send, MPI_Ssend,
//    message_calls.hpp) and was still running when its receive was posted
//    waited as a Late Receiver from its entry until then;
// each wait counted as a late message, as the forward pass books them.
// Not yet analyzed of these messages: the Late Sender of receives that a
// polling loop completed, messages in wrong order, and the delay costs and
// critical path of their waits (doc/analyzer.md, MPI on worker threads). A
// master's MPI_Waitall that completed messages of the replay too keeps the
// replay's longest wait only.
#pragma once

#include <span>
#include <vector>

#include "analyses/local_cube.hpp"
#include "analyses/patterns.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// The wait state of one of these messages on this side, as booked: a
// receive's Late Sender, a send's Late Receiver; ticks 0 where it did not wait.
struct MessageWait {
    WaitPattern pattern = WaitPattern::None;
    Ticks ticks = 0;
};
// By trace.threads.paired.
std::vector<MessageWait> thread_message_waits(const trace::LocalTrace& trace);

// `workers[t - 1]` is the cube of thread t (trace.threads.threads[t]).
void book_thread_messages(const trace::LocalTrace& trace, LocalCube& master, std::span<LocalCube> workers);

}  // namespace hindsight::analyses
