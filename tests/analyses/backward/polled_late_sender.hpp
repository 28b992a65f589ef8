// A Late Sender waited for in a polling loop, as the collector records one
// (doc/collector.md, "Polling loops"): the first unsuccessful test in full,
// the unsuccessful calls after it summed into one region of that function
// (nothing inside), computation between, then the call that finds the
// message. Ticks of 1 ns.
//   rank 0: Init 0-10 | work 10-40 | MPI_Send to 1 40-42 (sent at 40) | main | Finalize 60-70
//   rank 1: Init 0-10 | main 10-15 | poll 15-20 | main 20-30 | summed polls 30-45 | main 45-53
//           | completion 53-56 (received at 56) | main 56-65 | Finalize 65-70
// The polling, by `style`:
//   Test:    MPI_Irecv 10-12 posts the receive; the polls are MPI_Test of
//            its request (the first writes MPI_REQUEST_TEST); MPI_Test
//            53-56 completes it.
//   Iprobe:  MPI_Iprobe polls, a successful MPI_Iprobe 50-51, MPI_Recv 53-56.
//   Improbe: the same with MPI_Improbe and MPI_Mrecv.
//
// Hand-derived values:
//  - Late Sender: rank 1 waits inside the polls before the send began at
//    40: 15-20 (5) and 30-40 of the summed polls (10), 15 at main/<poll>;
//    none between the polls, none in the completing call or in the
//    successful probe (entered after 40). Counted at the completing call.
//  - Delay costs: since MPI_Init (no activity: all ranks left it together)
//    rank 0 ran work for 30 until its send, rank 1 main (and MPI_Irecv) for
//    5 until its first poll: rank 0's excess is work's 30, which gets all 15.
//  - Critical path: rank 1 enters MPI_Finalize last (65) and holds the
//    path: back through main (9), the completing call (3), main (8), the
//    summed polls after the send began (5) (and for the probes: main 2,
//    the successful probe 1, main 5 in place of main 8), then on rank 0
//    from its send at 40 through work (30) and MPI_Init (10): 65.
#pragma once

#include <string>

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

enum class PollingStyle { Test, Iprobe, Improbe };

// The same sender; the receiver polls once with MPI_Test, then waits in
// MPI_Wait 30-56, inside which the send begins:
//   rank 1: Init 0-10 | MPI_Irecv 10-12 | main 12-15 | MPI_Test 15-20 | main 20-30 | MPI_Wait 30-56
//           (received at 56) | main 56-65 | Finalize 65-70
//  - Late Sender: 5 in MPI_Test, 10 in MPI_Wait (30 until the send at 40).
//  - Delay costs: as above, work's 30 gets all 15.
//  - Critical path: rank 1 back through main (9) and MPI_Wait after the
//    send began (16), then rank 0 from 40 (40): 65.
inline TraceBuilder polled_then_waited_trace() {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 40, "work").send(40, 42, 1, 5, 64).finalize(60, 70).leave(70);
    RankBuilder& r = t.rank(1);
    r.enter(0, "main").init(0, 10);
    const RequestId request = r.irecv(10, 12, 0, 5, 64);
    r.test(15, 20, request, false).wait(30, 56, request).finalize(65, 70).leave(70);
    return t;
}

inline TraceBuilder polled_late_sender_trace(PollingStyle style) {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 40, "work").send(40, 42, 1, 5, 64).finalize(60, 70).leave(70);
    RankBuilder& r = t.rank(1);
    r.enter(0, "main").init(0, 10);
    if (style == PollingStyle::Test) {
        const RequestId request = r.irecv(10, 12, 0, 5, 64);
        r.test(15, 20, request, false).region(30, 45, "MPI_Test").test(53, 56, request, true);
    } else {
        const std::string probe = style == PollingStyle::Iprobe ? "MPI_Iprobe" : "MPI_Improbe";
        r.region(15, 20, probe).region(30, 45, probe).region(50, 51, probe);
        if (style == PollingStyle::Iprobe) r.recv(53, 56, 0, 5, 64);
        else r.enter(53, "MPI_Mrecv").recv_event(56, 0, 5, 64).leave(56);
    }
    r.finalize(65, 70).leave(70);
    return t;
}

}  // namespace hindsight::testing
