// What worker threads took part in, which pairing handled outside the
// replay, booked on the thread that took part:
//  - the messages with a worker thread on either side
//    (replay/thread_message_pairing.hpp, trace::ThreadStreams::paired): a
//    master's message counts there (synchronization or communication, and
//    its bytes), since it left the store the forward pass counts; a
//    worker's counts in the worker's profile (thread_profile.hpp); the
//    wait state of each (thread_message_waits.hpp), with its count as a
//    late message, as the forward pass books them;
//  - the collective operations a worker of some member made
//    (replay/thread_collective_pairing.hpp,
//    trace::ThreadStreams::collective_parts): a master's part counts there
//    likewise; the wait and completion of each (thread_collective_waits.hpp).
#pragma once

#include <span>
#include <vector>

#include "analyses/local_cube.hpp"
#include "analyses/longest_waits.hpp"
#include "analyses/patterns.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// `workers[t - 1]` is the cube of thread t (trace.threads.threads[t]).
// Returns the longest of the waits it booked (LongestWaits::kept()). Their
// delay costs are the delay analysis's (delay/thread_points.hpp,
// delay/collective_part_points.hpp).
std::vector<WaitInstance> book_worker_mpi(const trace::LocalTrace& trace, LocalCube& master,
                                          std::span<LocalCube> workers);

}  // namespace hindsight::analyses
