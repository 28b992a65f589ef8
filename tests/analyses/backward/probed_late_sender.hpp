// A Late Sender whose wait is in the blocking probe before the receive
// (MPI_Probe then MPI_Recv, or MPI_Mprobe then MPI_Mrecv). Ticks of 1 ns.
//   rank 0: Init 0-10 | work 10-50 | MPI_Send to 1 50-52 (sent at 50) | main | Finalize 60-70
//   rank 1: Init 0-10 | main 10-15 | probe 15-51 | main 51-53 | receive 53-58 | main 58-65 | Finalize 65-70
//
// Hand-derived values:
//  - Late Sender: rank 1 waits in the probe from 15 until the send began at
//    50: 35, at main/<probe>; the receive, which finds the message, none.
//  - Delay costs: since MPI_Init (no activity: all ranks left it together)
//    rank 0 ran work for 40 until its send, rank 1 main for 5 until its
//    probe: rank 0's excess is work's 40, which gets all 35.
//  - Critical path: rank 1 enters MPI_Finalize last (65) and holds the
//    path: back through main (7), the receive (5), main (2) and the probe
//    after the wait's end at 50 (1), then on rank 0 from its send at 50
//    through work (40) and MPI_Init (10): 65.
#pragma once

#include <string>

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder probed_late_sender_trace(const std::string& probe, const std::string& receive) {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 50, "work").send(50, 52, 1, 5, 64).finalize(60, 70).leave(70);
    t.rank(1).enter(0, "main").init(0, 10).region(15, 51, probe).enter(53, receive).recv_event(57, 0, 5, 64)
        .leave(58).finalize(65, 70).leave(70);
    return t;
}

}  // namespace hindsight::testing
