// Two ranks exchange messages with one MPI_Sendrecv each, rank 1 early:
// the message 0 -> 1 is a Late Sender (rank 1's receive waits for rank 0's
// send), the message 1 -> 0 a Late Receiver (rank 1's blocking send waits
// for rank 0's receive to begin). Backward, each rank's receive asks its
// sender for a reply (delay costs on both, the critical path on rank 0),
// and each sender answers only at the Send of its own Sendrecv, which a
// backward replay meets after that Recv: the replay must not wait for a
// reply before it has left the Sendrecv. One unit = 1 s = 1000 ticks.
//
//   rank 0: Init 0-1 | f 1-4 | Sendrecv 4-6 (send at 4, recv at 6) | Finalize 6-7
//   rank 1: Init 0-1 | f 1-2 | Sendrecv 2-5 (send at 2, recv at 5) | Finalize 5-7
//
// Hand-derived values (all on rank 1's MPI_Sendrecv unless said otherwise):
//  - Late Sender: 4 - 2 = 2 units (rank 0 sent at 4, rank 1 waited from 2).
//  - Late Receiver: rank 0's receive began at 4, rank 1's send at 2: 2 units.
//  - Wait at Finalize: rank 1 waits 6 - 5 = 1 unit for rank 0.
//  - Critical path: rank 0 entered MPI_Finalize last (6); rank 0 never
//    waited, so the whole path, 6 units, runs on rank 0: MPI_Init 1, f 3,
//    MPI_Sendrecv 2.
//  - Delay costs. Synchronization intervals end at the entry into the
//    Sendrecv; each message's interval begins at the end of the previous
//    synchronization of the two ranks: MPI_Init for the sends, but for the
//    receives the send of the same Sendrecv (so their intervals are empty).
//    Late Sender (2 units, caused by rank 0): rank 0's interval [1, 4] has
//    f 3, rank 1's (the receive's) nothing: all 2 units go to f on rank 0,
//    none of it indirect (rank 0 did not wait in the interval), terminal
//    (rank 1's wait caused no later waiting).
//    Late Receiver (2 units, caused by rank 0): the delayer's (receive's)
//    interval is empty, so no delay explains the wait: its 2 units stay as
//    delay cost on rank 0's MPI_Sendrecv; for rank 1 it is direct and
//    terminal.
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
