// The critical path and the indicators derived from it, on exact scenarios.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/analyses/backward/late_receiver_chain.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Over all ranks the performance-impact metrics make up the allocation:
// each rank's own time without waits plus the headroom of the ranks that
// lack time in some critical call path = ranks x the path's length, plus
// `beyond`, the time ranks were busy for longer than the path (in their
// MPI_Finalize after its end).
void check_impact_total(const AnalysisResults& r, int ranks, double length, double beyond = 0) {
    double parts = 0;
    for (int rank = 0; rank < ranks; ++rank)
        parts += subtree_total(r, Metric::CriticalPathActivities, rank) +
                 subtree_total(r, Metric::CriticalImbalanceImpact, rank) +
                 subtree_total(r, Metric::NonCriticalPathActivities, rank);
    CHECK(parts == Approx(ranks * length + beyond));
}

}  // namespace

TEST_CASE("critical path: Figure 3's run, path and profile", "[critical-path]") {
    const AnalysisResults r(figure3_trace(), kAllAnalyses);
    const int A = 0, B = 1, C = 2;
    // C entered MPI_Finalize last, at 8: the path is 8 units long.
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(8.0));
    // R4's part after the wait on C, R3's on B, then A back to the start.
    CHECK(r.with_children(Metric::CriticalPath, C, "main/MPI_Recv") == Approx(1.0));
    CHECK(r.with_children(Metric::CriticalPath, B, "main/MPI_Recv") == Approx(1.0));
    CHECK(r.with_children(Metric::CriticalPath, A, "main/g") == Approx(3.0));
    CHECK(r.with_children(Metric::CriticalPath, A, "main/f") == Approx(2.0));
    CHECK(r.with_children(Metric::CriticalPath, A, "main/MPI_Init") == Approx(1.0));
    CHECK(r.with_children(Metric::CriticalPath, A, "main/MPI_Send") == 0.0);
    CHECK(subtree_total(r, Metric::CriticalPath, C) == Approx(1.0));
}

TEST_CASE("critical path: Figure 3's run, imbalance", "[critical-path]") {
    const AnalysisResults r(figure3_trace(), kAllAnalyses);
    const int A = 0, B = 1, C = 2;
    // imbalance = max(d_cp - avg, 0) per call path:
    //   MPI_Recv: 2 on the path, (0 + 1 + 1) / 3 on average -> 4/3
    //   f:        2, (2 + 1 + 1.5) / 3 = 1.5                 -> 0.5
    //   g:        3, (3 + 0 + 1.5) / 3 = 1.5                 -> 1.5
    //   MPI_Init: 1, 1                                        -> 0
    CHECK(at_path(r, Metric::CriticalPathImbalance, 3, "main/MPI_Recv") == Approx(4.0 / 3));
    CHECK(at_path(r, Metric::CriticalPathImbalance, 3, "main/f") == Approx(0.5));
    CHECK(at_path(r, Metric::CriticalPathImbalance, 3, "main/g") == Approx(1.5));
    CHECK(at_path(r, Metric::CriticalPathImbalance, 3, "main/MPI_Init") == Approx(0.0));
    // Stored where the path ran, in proportion to its time there.
    CHECK(r.with_children(Metric::CriticalPathImbalance, B, "main/MPI_Recv") == Approx(2.0 / 3));
    CHECK(r.with_children(Metric::CriticalPathImbalance, C, "main/MPI_Recv") == Approx(2.0 / 3));
    CHECK(r.with_children(Metric::CriticalPathImbalance, A, "main/MPI_Recv") == 0.0);
    CHECK(r.with_children(Metric::CriticalPathImbalance, A, "main/g") == Approx(1.5));
}

TEST_CASE("critical path: Figure 3's run, performance impact", "[critical-path]") {
    const AnalysisResults r(figure3_trace(), kAllAnalyses);
    const int A = 0, B = 1, C = 2;
    // On the path (G): MPI_Recv 2 (1 on B, 1 on C), f 2, g 3, MPI_Init 1
    // (all on A). Each rank's own time without waits over the whole run
    // (the waits at MPI_Finalize, until C entered at 8, excluded):
    //   A: Init 1, f 2, g 3, Send 1, Finalize 2 - 1       = 8
    //   B: Init 1, h 1, f 1, Recv 1, Send 0.5, Finalize 1  = 5.5
    //   C: Init 1, h 1, f 1.5, g 1.5, Recv 1, Finalize 1   = 7
    // Headroom = 8 minus that: A 0, B 2.5, C 1, spread over the call paths
    // by the excess max(G - own, 0):
    //   B: MPI_Recv 1, f 1, g 3 (sum 5), scale 0.5 -> 0.5, 0.5, 1.5 (g inter)
    //   C: MPI_Recv 1, f 0.5, g 1.5 (sum 3), scale 1/3 -> 1/3, 1/6, 1/2
    // Summed: MPI_Recv 5/6, f 2/3, g 2 (1.5 of it inter), stored on the
    // ranks that carried the call path on the path, by their share of G.
    CHECK(r.with_children(Metric::CriticalImbalanceImpact, B, "main/MPI_Recv") == Approx(5.0 / 12));
    CHECK(r.with_children(Metric::CriticalImbalanceImpact, C, "main/MPI_Recv") == Approx(5.0 / 12));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, A, "main/f") == Approx(2.0 / 3));
    CHECK(r.with_children(Metric::CriticalImbalanceImpact, A, "main/g") == Approx(2.0));
    CHECK(r.with_children(Metric::InterPartitionImbalance, A, "main/g") == Approx(1.5));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, A, "main/g") == Approx(0.5));
    CHECK(subtree_total(r, Metric::CriticalImbalanceImpact, B) == Approx(5.0 / 12));
    // Activities: time without waits; critical up to the call path's time
    // on the path, the rest (and call paths off the path) non-critical.
    CHECK(r.with_children(Metric::CriticalPathActivities, B, "main/MPI_Recv") == Approx(1.0));
    CHECK(r.with_children(Metric::NonCriticalPathActivities, B, "main/h") == Approx(1.0));
    CHECK(r.with_children(Metric::NonCriticalPathActivities, B, "main/MPI_Send") == Approx(0.5));
    CHECK(r.with_children(Metric::CriticalPathActivities, C, "main/g") == Approx(1.5));
    CHECK(r.with_children(Metric::CriticalPathActivities, A, "main/g") == Approx(3.0));
    CHECK(r.with_children(Metric::NonCriticalPathActivities, A, "main/MPI_Finalize") == Approx(1.0));
    check_impact_total(r, 3, 8.0);
}

TEST_CASE("critical path: a Late Receiver hands the path to the receiver", "[critical-path]") {
    // The scenario of the delay test: rank 0's send waits 35 for rank 1,
    // which waited 30 for rank 2. Ranks 0 and 1 enter MPI_Finalize at 50
    // (the path starts on rank 0, the lower of the two).
    //   rank 0: MPI_Send 45-50 after its wait             5
    //   rank 1: first MPI_Recv 40-45 after its wait        5
    //   rank 2: k 10-40, MPI_Init 0-10                    40
    const TraceBuilder t = late_receiver_chain_trace();
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(50)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Send") == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Recv") == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 2, "main/k") == Approx(ns(30)));
    CHECK(r.with_children(Metric::CriticalPath, 2, "main/MPI_Init") == Approx(ns(10)));
    CHECK(subtree_total(r, Metric::CriticalPath, 2) == Approx(ns(40)));
    // Rank 2 was busy for 55 (Init 10, k 30, MPI_Send 5, MPI_Finalize 15
    // less its wait until 50): 5 beyond the path.
    check_impact_total(r, 3, ns(50), ns(5));
}

TEST_CASE("critical path: switched off with its option", "[critical-path]") {
    const AnalysisResults r(figure3_trace(), AnalysisOptions{false, true});
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == 0.0);
    CHECK(all_ranks(r, Metric::DelayLateSender, 3) == Approx(3.5));
}

TEST_CASE("critical path: no MPI_Init/MPI_Finalize, no path", "[critical-path]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").send(10, 20, 1, 0, 8).leave(30);
    t.rank(1).enter(0, "main").recv(0, 20, 0, 0, 8).leave(30);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == 0.0);
    CHECK(all_ranks(r, Metric::CriticalPathActivities, 2) == 0.0);
}

TEST_CASE("critical path: a rank busy for longer than the path spreads no headroom", "[critical-path]") {
    //   rank 0: Init 0-10 | f 10-40 | Send to 1 40-41 | Send to 2 41-42 | Finalize 42-100
    //   rank 1: Init 0-10 | g 10-20 | Recv from 0 20-45 (waits 20-40)   | Finalize 45-50
    //   rank 2: Init 0-10 | g 10-30 | Recv from 0 30-44 (waits 30-41)   | Finalize 44-50
    // Rank 1 enters MPI_Finalize last, at 45: the path is rank 1's MPI_Recv
    // from 40, then rank 0's f and MPI_Init: G = Init 10, f 30, MPI_Recv 5.
    // Own time without waits (MPI_Finalize less its wait until 45):
    //   rank 0: 10 + 30 + 2 + (58 - 3) = 97, longer than the path: no headroom
    //   rank 1: 10 + 10 + 5 + 5 = 30, headroom 15 over f 30 (never run)
    //   rank 2: 10 + 20 + 3 + (6 - 1) = 38, headroom 7 over f 30, MPI_Recv 2
    // So f gets 15 + 7 * 30/32 (inter-partition), MPI_Recv 7 * 2/32.
    TraceBuilder t(3);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 40, "f").send(40, 41, 1, 0, 8).send(41, 42, 2, 0, 8)
        .finalize(42, 100).leave(100);
    t.rank(1).enter(0, "main").init(0, 10).region(10, 20, "g").recv(20, 45, 0, 0, 8).finalize(45, 50).leave(50);
    t.rank(2).enter(0, "main").init(0, 10).region(10, 30, "g").recv(30, 44, 0, 0, 8).finalize(44, 50).leave(50);
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(45)));
    CHECK(r.with_children(Metric::CriticalImbalanceImpact, 0, "main/f") == Approx(ns(15) + ns(7) * 30 / 32));
    CHECK(r.with_children(Metric::InterPartitionImbalance, 0, "main/f") == Approx(ns(15) + ns(7) * 30 / 32));
    CHECK(r.with_children(Metric::CriticalImbalanceImpact, 1, "main/MPI_Recv") == Approx(ns(7) * 2 / 32));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, 1, "main/MPI_Recv") == Approx(ns(7) * 2 / 32));
    for (int rank = 0; rank < 3; ++rank) CHECK(subtree_total(r, Metric::CriticalImbalanceImpact, rank) >= 0.0);
}

TEST_CASE("critical path: a collective's operation begins after its call's entry", "[critical-path]") {
    // The trace shows when the barrier began inside each call:
    //   rank 0: Init 0-10 | w 10-30 | Barrier 30-37 (begins at 35)          | Finalize 37-40
    //   rank 1: Init 0-10 | v 10-20 | Barrier 20-37 (begins at 21) | main 37-38 | Finalize 38-40
    // Rank 1 waits from its begin at 21 to rank 0's at 35 (14). Rank 1
    // enters MPI_Finalize last, at 38: the path runs back on rank 1 through
    // main (1) and its barrier after rank 0 arrived (35-37: 2), then on
    // rank 0 through its barrier up to the begin (30-35: 5), w (20) and
    // MPI_Init (10): 38, the length of the run.
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 30, "w").enter(30, "MPI_Barrier")
        .collective_begin_event(35).collective_end_event(36, OTF2_COLLECTIVE_OP_BARRIER, t.world(), -1, 0, 0)
        .leave(37).finalize(37, 40).leave(40);
    t.rank(1).enter(0, "main").init(0, 10).region(10, 20, "v").enter(20, "MPI_Barrier")
        .collective_begin_event(21).collective_end_event(36, OTF2_COLLECTIVE_OP_BARRIER, t.world(), -1, 0, 0)
        .leave(37).finalize(38, 40).leave(40);
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(r.own(Metric::MpiBarrierWait, 1, "main/MPI_Barrier") == Approx(ns(14)));
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(38)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Barrier") == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Barrier") == Approx(ns(2)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/w") == Approx(ns(20)));
}

namespace {

// One ping-pong step: `sender` works 10 in w, then sends for 1; the
// receiver, in MPI_Recv from the start of the step, waits 10 (Late Sender).
// Returns the step's end.
Ticks ping_pong_step(TraceBuilder& t, int sender, Ticks start) {
    t.rank(sender).region(start, start + 10, "w").send(start + 10, start + 11, 1 - sender, 0, 8);
    t.rank(1 - sender).recv(start, start + 11, sender, 0, 8);
    return start + 11;
}

}  // namespace

TEST_CASE("critical path: a long ping-pong chain with a Late Receiver and a barrier", "[critical-path]") {
    // 40 Late Sender messages between two ranks, the path handed over at
    // each, and in the middle a Late Receiver and a barrier wait:
    //   A  20 steps from 10 to 230, senders 0, 1, 0, ...
    //   B  rank 0: w 230-240 | MPI_Send to 1 240-256 (waits 15: Late Receiver)
    //      rank 1: v 230-255 | MPI_Recv from 0 255-256
    //      then rank 0 sends again: w 256-266, MPI_Send 266-267; rank 1
    //      MPI_Recv 256-267 (Late Sender)
    //   C  rank 0: MPI_Barrier 267-288 (waits 20); rank 1: u 267-287,
    //      MPI_Barrier 287-288
    //   D  19 steps from 288 to 497, senders 0, 1, 0, ..., 0
    //   rank 1 then runs tail 497-502; both finalize until 510, rank 1
    //   entering last, at 502: the path is 502 long.
    // Backward from 502 on rank 1: tail 5; in D each step's receive after
    // the wait (1) and its sender's w (10); on rank 0 the barrier after
    // rank 1 arrived (287-288: 1), then rank 1's u (20) and the receive of
    // B's second message (1), rank 0's w (10) and its Late Receiver send
    // after rank 1 posted the receive (255-256: 1), rank 1's v (25), the
    // send that ended A (229-230: 1) and from there A's steps back to rank
    // 0's first w and MPI_Init (10). Of A's receives only the last one
    // (rank 0's, of step 19) is off the path.
    TraceBuilder t(2);
    for (int r = 0; r < 2; ++r) t.rank(r).enter(0, "main").init(0, 10);
    Ticks now = 10;
    for (int step = 0; step < 20; ++step) now = ping_pong_step(t, step % 2, now);
    REQUIRE(now == 230);
    t.rank(0).region(230, 240, "w").send(240, 256, 1, 0, 8).region(256, 266, "w").send(266, 267, 1, 0, 8);
    t.rank(1).region(230, 255, "v").recv(255, 256, 0, 0, 8).recv(256, 267, 0, 0, 8);
    t.rank(0).barrier(267, 288);
    t.rank(1).region(267, 287, "u").barrier(287, 288);
    now = 288;
    for (int step = 0; step < 19; ++step) now = ping_pong_step(t, step % 2, now);
    REQUIRE(now == 497);
    t.rank(0).finalize(497, 510).leave(510);
    t.rank(1).region(497, 502, "tail").finalize(502, 510).leave(510);

    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(r.own(Metric::MpiBarrierWait, 0, "main/MPI_Barrier") == Approx(ns(20)));
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(502)));
    // Rank 0: A's w of steps 0, 2, ..., 18 (10 x 10), B's w, D's w of steps
    // 0, 2, ..., 18 (10 x 10); receives of A's steps 1, 3, ..., 17 and D's
    // 1, 3, ..., 17 (9 + 9).
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Init") == Approx(ns(10)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/w") == Approx(ns(210)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Recv") == Approx(ns(18)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Send") == Approx(ns(1)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Barrier") == Approx(ns(1)));
    CHECK(subtree_total(r, Metric::CriticalPath, 0) == Approx(ns(240)));
    // Rank 1: A's w of steps 1, 3, ..., 19 (10 x 10), D's of 1, 3, ..., 17
    // (9 x 10); receives of A's steps 0, 2, ..., 18, B's second and D's 0,
    // 2, ..., 18 (10 + 1 + 10).
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/w") == Approx(ns(190)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Recv") == Approx(ns(21)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Send") == Approx(ns(1)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/v") == Approx(ns(25)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/u") == Approx(ns(20)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/tail") == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Barrier") == 0.0);
    CHECK(subtree_total(r, Metric::CriticalPath, 1) == Approx(ns(262)));
}
