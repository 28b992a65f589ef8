// Three ranks start one MPI_Iallreduce at different times, work on, and
// await it in MPI_Wait. Ticks of 1 ns. Rank r (prep p = 10, 40, 20):
//   Init 0-10 | prep 10-(10+p) | MPI_Iallreduce (10+p)-(12+p), request at 11+p
//   | overlap (12+p)-(17+p) | MPI_Wait (17+p)-80, completion at 79 | Finalize 80-90
// so the ranks start at 21, 51, 31 and await the operation from 27, 57, 37.
//
// Hand-derived values:
//  - Wait at N x N, in MPI_Wait: each rank waits from where it awaited the
//    operation until the last start (rank 1's, 51): rank 0 24, rank 2 14;
//    rank 1 started last and waits nothing. No completion time: everybody
//    completes at 79.
//  - Delay costs: rank 1 held the others up where it started, so its
//    interval since MPI_Init (whose time is no activity: all ranks left it
//    together) ends at its MPI_Iallreduce (50) and holds prep 40; rank 0's
//    ends where it waited (27) and holds prep 10, MPI_Iallreduce 2 and
//    overlap 5, rank 2's (37) prep 20, MPI_Iallreduce 2, overlap 5. Rank 1's
//    excess is in prep alone (30 over rank 0, 20 over rank 2), so its prep
//    gets all 38 ticks of waiting, short-term.
//  - Critical path: all ranks enter MPI_Finalize at 80; rank 0, the lowest,
//    holds the path: back through its MPI_Wait to the end of its wait at
//    51 (29), then on rank 1 from its start at 51 through MPI_Iallreduce
//    (1), prep (40) and MPI_Init (10): 80.
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder nonblocking_allreduce_trace() {
    TraceBuilder t(3);
    const Ticks prep[] = {10, 40, 20};
    for (int r = 0; r < 3; ++r) {
        const Ticks p = prep[r];
        auto& rank = t.rank(r).enter(0, "main").init(0, 10).region(10, 10 + p, "prep");
        rank.enter(10 + p, "MPI_Iallreduce");
        const auto request = rank.nonblocking_collective_request_event(11 + p);
        rank.leave(12 + p).region(12 + p, 17 + p, "overlap").enter(17 + p, "MPI_Wait");
        rank.nonblocking_collective_complete_event(79, request, OTF2_COLLECTIVE_OP_ALLREDUCE, t.world(), -1, 8, 8);
        rank.leave(80).finalize(80, 90).leave(90);
    }
    return t;
}

}  // namespace hindsight::testing
