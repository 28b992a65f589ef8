// The messages with an OpenMP worker thread on either side, which pairing
// matched outside the replay (replay/thread_message_pairing.hpp), booked on
// the thread that sent or received each (trace::ThreadStreams::paired):
//  - a master's message counts there (synchronization or communication,
//    and its bytes), since it left the store the forward pass counts; a
//    worker's counts in the worker's profile (thread_profile.hpp);
//  - its wait state (thread_message_waits.hpp), with its count as a late
//    message, as the forward pass books them.
#pragma once

#include <span>

#include "analyses/local_cube.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// `workers[t - 1]` is the cube of thread t (trace.threads.threads[t]).
void book_thread_messages(const trace::LocalTrace& trace, LocalCube& master, std::span<LocalCube> workers);

}  // namespace hindsight::analyses
