// Two ranks that also send messages to themselves (the periodic boundary of
// a grid dimension one rank wide, a transpose's diagonal block). Such a
// message is received after its own send, so it never waits; it counts as
// a message, and rank 1 waits for rank 0's message as usual. 1 tick = 1 ns.
//
//   rank 0: Init 0-10 | MPI_Sendrecv with itself 20-25 (8 bytes) | work 25-80
//           | MPI_Send to rank 1 80-85 (16 bytes) | Finalize 100-120
//   rank 1: Init 0-10 | MPI_Isend to itself 12-13 (32 bytes) | MPI_Recv of
//           it 14-16 | MPI_Wait 17-18 | MPI_Recv from rank 0 30-90
//           | Finalize 100-120
//
// Hand-derived values:
//  - Late Sender on rank 1's second MPI_Recv: 80 - 30 = 50; no other wait.
//  - Delay costs: the wait's synchronization interval runs from MPI_Init,
//    which both left at 10, to rank 0's send (80) and rank 1's receive
//    (30); the messages to oneself synchronize with nobody else. Rank 0
//    spent main 10, MPI_Sendrecv 5, work 55; rank 1 main 16 and 4 in its
//    MPI calls of other call paths than rank 0's: the excess is
//    MPI_Sendrecv 5 and work 55, 60 for 50 of waiting, so work carries
//    50 * 55/60 and MPI_Sendrecv 50 * 5/60.
//  - Critical path: both enter MPI_Finalize at 100. The path runs on rank
//    0 from the start to its send (Init 10, main 10, MPI_Sendrecv 5, work
//    55), then on rank 1 from the send to MPI_Finalize: 100 in all.
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder messages_to_oneself_trace() {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 10).sendrecv(20, 25, 0, 5, 8, 0, 5, 8).region(25, 80, "work")
        .send(80, 85, 1, 1, 16).finalize(100, 120).leave(120);
    auto& r1 = t.rank(1).enter(0, "main").init(0, 10);
    const auto to_itself = r1.isend(12, 13, 1, 6, 32);
    r1.recv(14, 16, 1, 6, 32).wait(17, 18, to_itself).recv(30, 90, 0, 1, 16).finalize(100, 120).leave(120);
    return t;
}

}  // namespace hindsight::testing
