// A Late Receiver whose receiver was itself late because of a Late Sender.
// Ticks of 1 ns.
//   rank 0: Init 0-10 | MPI_Send to 1: 10-50                   | Finalize 50-60
//   rank 1: Init 0-10 | MPI_Recv from 2: 10-45 | from 0: 45-50 | Finalize 50-60
//   rank 2: Init 0-10 | k 10-40 | MPI_Send to 1: 40-45        | Finalize 45-60
// Rank 1 waits 30 for rank 2 (Late Sender, 10-40); rank 0's send waits 35
// for rank 1's receive to begin (Late Receiver, 10-45). Ranks 0 and 1 enter
// MPI_Finalize at 50.
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder late_receiver_chain_trace() {
    TraceBuilder t(3);
    t.rank(0).enter(0, "main").init(0, 10).send(10, 50, 1, 1, 8).finalize(50, 60).leave(60);
    t.rank(1).enter(0, "main").init(0, 10).recv(10, 45, 2, 2, 8).recv(45, 50, 0, 1, 8)
        .finalize(50, 60).leave(60);
    t.rank(2).enter(0, "main").init(0, 10).region(10, 40, "k").send(40, 45, 1, 2, 8)
        .finalize(45, 60).leave(60);
    return t;
}

}  // namespace hindsight::testing
