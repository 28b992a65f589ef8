// The messages with an OpenMP worker thread on either side, which pairing
// matched outside the replay (replay/thread_message_pairing.hpp), booked on
// the thread that sent or received each (trace::ThreadStreams::paired):
//  - a master's message counts there (synchronization or communication,
//    and its bytes), since it left the store the forward pass counts; a
//    worker's counts in the worker's profile (thread_profile.hpp);
//  - a receive completed by a call that completes one receive, the
//    master's or a worker's, waited as a Late Sender from the call's entry
//    until the send's call was entered, at most until the receive's record,
//    and counts as a Late Sender message, as the forward pass books them.
// Not yet analyzed of these messages: the Late Sender of receives that
// MPI_Waitall & co. or a polling loop completed, Late Receiver, messages in
// wrong order, and the delay costs and critical path of their waits
// (doc/analyzer.md, MPI on worker threads).
#pragma once

#include <span>

#include "analyses/local_cube.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// The Late Sender wait of one of these messages, as booked (0 for a send,
// a receive that no call of one completed, or one that did not wait).
Ticks late_sender_wait(const trace::LocalTrace& trace, const trace::ThreadPairedMessage& message);

// `workers[t - 1]` is the cube of thread t (trace.threads.threads[t]).
void book_thread_messages(const trace::LocalTrace& trace, LocalCube& master, std::span<LocalCube> workers);

}  // namespace hindsight::analyses
