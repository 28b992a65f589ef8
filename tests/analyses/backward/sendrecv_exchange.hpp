// Two ranks exchange messages with one MPI_Sendrecv each, rank 1 early:
// the message 0 -> 1 is a Late Sender (rank 1's receive waits for rank 0's
// send). The message 1 -> 0 is no wait state: rank 1's send began before
// rank 0's receive, but the send of an MPI_Sendrecv never waits for its
// receiver (Late Receiver), only its receive part for a sender (as in
// Scalasca). One unit = 1 s = 1000 ticks.
//
//   rank 0: Init 0-1 | f 1-4 | Sendrecv 4-6 (send at 4, recv at 6) | Finalize 6-7
//   rank 1: Init 0-1 | f 1-2 | Sendrecv 2-5 (send at 2, recv at 5) | Finalize 5-7
//
// Hand-derived values (all on rank 1's MPI_Sendrecv unless said otherwise):
//  - Late Sender: 4 - 2 = 2 units (rank 0 sent at 4, rank 1 waited from 2).
//  - Wait at Finalize: rank 1 waits 6 - 5 = 1 unit for rank 0.
//  - Critical path: rank 0 entered MPI_Finalize last (6); rank 0 never
//    waited, so the whole path, 6 units, runs on rank 0: MPI_Init 1, f 3,
//    MPI_Sendrecv 2.
//  - Delay costs. The Late Sender's synchronization interval begins at
//    MPI_Init, which the ranks left together (so none of it counts), and
//    ends at the entry into each Sendrecv: rank 0 ran f for 3 units, rank 1
//    for 1: all 2 units go to f on rank 0, none of it indirect (rank 0 did
//    not wait in the interval), terminal (rank 1's wait caused no later
//    waiting).
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder sendrecv_exchange_trace() {
    constexpr Ticks u = 1000;
    TraceBuilder t(2);
    t.set_ticks_per_second(1000);
    t.rank(0).enter(0, "main").init(0, u)
        .region(u, 4 * u, "f")
        .sendrecv(4 * u, 6 * u, 1, 5, 64, 1, 6, 64)
        .finalize(6 * u, 7 * u).leave(7 * u);
    t.rank(1).enter(0, "main").init(0, u)
        .region(u, 2 * u, "f")
        .sendrecv(2 * u, 5 * u, 0, 6, 64, 0, 5, 64)
        .finalize(5 * u, 7 * u).leave(7 * u);
    return t;
}

}  // namespace hindsight::testing
