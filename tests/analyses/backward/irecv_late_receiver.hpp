// A Late Receiver whose receive was posted by an MPI_Irecv and completed in
// an MPI_Wait after a barrier. Ticks of 1 ns.
//   rank 0: Init 0-5 | MPI_Send to 1 10-20           | Barrier 21-27 | Finalize 50-60
//   rank 1: Init 0-5 | MPI_Irecv 15-16 | Barrier 22-27 | MPI_Wait 30-40 | Finalize 50-60
// Rank 0's send waits from 10 until rank 1 posts the receive at 15 (Late
// Receiver, 5); at the barrier rank 0 waits 1 for rank 1. Backward, the
// answers to the Late Receiver travel from rank 0's send to rank 1, which
// meets the receive first at its completion, after the barrier: a replay
// that waited for them there would deadlock (rank 0 reaches its send only
// after the barrier); it must wait where the receive was posted.
//
// Hand-derived values:
//  - Late Receiver delay costs: since MPI_Init (none of whose time is
//    activity: all ranks left it together) rank 1 ran main for 10 before
//    posting, rank 0 for 5 before sending: rank 1's main gets all 5.
//  - Wait at Barrier: since the message (whose calls count only with their
//    completion, none here), rank 1 ran main 16-22, rank 0 main 20-21:
//    rank 1's main gets the 1.
//  - Critical path: ranks 0 and 1 enter MPI_Finalize together (rank 0, the
//    lower, holds the path): back on rank 0 to the end of its barrier wait
//    at 22 (main 23, MPI_Barrier 5), then on rank 1 from 22 back to the
//    start (main 6 + 10, MPI_Irecv 1, MPI_Init 5): 50.
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder irecv_late_receiver_trace() {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 5).send(10, 20, 1, 7, 8).barrier(21, 27).finalize(50, 60).leave(60);
    auto& receiver = t.rank(1).enter(0, "main").init(0, 5);
    const auto request = receiver.irecv(15, 16, 0, 7, 8);
    receiver.barrier(22, 27).wait(30, 40, request).finalize(50, 60).leave(60);
    return t;
}

}  // namespace hindsight::testing
