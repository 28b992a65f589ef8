// Delay costs (root causes of wait states) on exact scenarios.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/analyses/backward/irecv_late_receiver.hpp"
#include "tests/analyses/backward/late_receiver_chain.hpp"
#include "tests/analyses/backward/nonblocking_allreduce.hpp"
#include "tests/analyses/backward/sparse_alltoallv.hpp"
#include "tests/analyses/backward/polled_late_sender.hpp"
#include "tests/analyses/backward/probed_late_sender.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Every tick of waiting of a pattern ends up as delay cost of that pattern.
void check_conservation(const AnalysisResults& r, int ranks, Metric wait, Metric delay_short,
                        Metric delay_long) {
    const double waiting = all_ranks(r, wait, ranks);
    CHECK(all_ranks(r, delay_short, ranks) + all_ranks(r, delay_long, ranks) ==
          Approx(waiting).margin(1e-12));
}

}  // namespace

TEST_CASE("delay costs: Figure 3 of the delay-analysis paper", "[delay]") {
    const AnalysisResults r(figure3_trace(), kAllAnalyses);
    const int A = 0, B = 1, C = 2;
    // The forward analysis sees the two waits the figure shows.
    REQUIRE(r.own(Metric::MpiLateSender, B, "main/MPI_Recv") == Approx(3.0));
    REQUIRE(r.own(Metric::MpiLateSender, C, "main/MPI_Recv") == Approx(2.0));

    // Short-term: f 0.75 and g 2.25 on A, 0.5 in B's receive R3.
    CHECK(r.own(Metric::DelayLateSender, A, "main/f") == Approx(0.75));
    CHECK(r.own(Metric::DelayLateSender, A, "main/g") == Approx(2.25));
    CHECK(r.own(Metric::DelayLateSender, B, "main/MPI_Recv") == Approx(0.5));
    // Long-term: R4's wait propagated through R3 to f (0.375) and g (1.125).
    CHECK(r.own(Metric::DelayLateSenderLongterm, A, "main/f") == Approx(0.375));
    CHECK(r.own(Metric::DelayLateSenderLongterm, A, "main/g") == Approx(1.125));
    CHECK(r.own(Metric::DelayLateSenderLongterm, B, "main/MPI_Recv") == 0.0);
    // Nothing else is a delay; together the costs are the 5 units of waiting.
    CHECK(all_ranks(r, Metric::DelayLateSenderAggregate, 3) == Approx(5.0));
    CHECK(r.own(Metric::DelayLateSender, C, "main/f") == 0.0);
    CHECK(r.own(Metric::DelayLateSender, C, "main/g") == 0.0);
    check_conservation(r, 3, Metric::MpiLateSender, Metric::DelayLateSender,
                       Metric::DelayLateSenderLongterm);
}

TEST_CASE("delay costs: Figure 3's wait states, classified", "[delay]") {
    const AnalysisResults r(figure3_trace(), kAllAnalyses);
    const int B = 1, C = 2;
    // R3 on B is caused by A's computation alone (direct); 1.5 of its 3
    // units caused R4 (propagating: s = 0.25 of C's 2 units per unit), the
    // rest caused nothing (terminal). R4 on C is explained 0.5 by R3's
    // processing (direct) and 1.5 by R3's waiting (indirect), and causes
    // nothing (terminal).
    CHECK(r.own(Metric::MpiWaitDirectLatesender, B, "main/MPI_Recv") == Approx(3.0));
    CHECK(r.own(Metric::MpiWaitIndirectLatesender, B, "main/MPI_Recv") == Approx(0.0));
    CHECK(r.own(Metric::MpiWaitPropagatingLs, B, "main/MPI_Recv") == Approx(1.5));
    CHECK(r.own(Metric::MpiWaitTerminalLs, B, "main/MPI_Recv") == Approx(1.5));
    CHECK(r.own(Metric::MpiWaitDirectLatesender, C, "main/MPI_Recv") == Approx(0.5));
    CHECK(r.own(Metric::MpiWaitIndirectLatesender, C, "main/MPI_Recv") == Approx(1.5));
    CHECK(r.own(Metric::MpiWaitPropagatingLs, C, "main/MPI_Recv") == Approx(0.0));
    CHECK(r.own(Metric::MpiWaitTerminalLs, C, "main/MPI_Recv") == Approx(2.0));
    // Both classifications partition the 5 units of Late Sender waiting.
    CHECK(all_ranks(r, Metric::MpiWaitDirect, 3) + all_ranks(r, Metric::MpiWaitIndirect, 3) ==
          Approx(5.0));
    CHECK(all_ranks(r, Metric::MpiWaitPropagating, 3) + all_ranks(r, Metric::MpiWaitTerminal, 3) ==
          Approx(5.0));
}

TEST_CASE("delay costs: a Late Receiver chain goes back through a Late Sender", "[delay]") {
    // The scenario of late_receiver_chain.hpp.
    const TraceBuilder t = late_receiver_chain_trace();
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Send") == Approx(ns(35)));
    // (Received after a message sent earlier: Late Sender, wrong order.)
    REQUIRE(r.with_children(Metric::MpiLateSender, 1, "main/MPI_Recv") == Approx(ns(30)));

    // Rank 0's wait (interval: nothing on rank 0; on rank 1 the first receive
    // with 5 of processing and 30 of waiting): s = 1/35, so 5 go to rank 1's
    // receive as short-term cost and 30 to the Late Sender wait's gamma_long.
    CHECK(r.own(Metric::DelayLateReceiver, 1, "main/MPI_Recv") == Approx(ns(5)));
    CHECK(r.own(Metric::DelayLateReceiverLongterm, 1, "main/MPI_Recv") == 0.0);
    // Rank 1's wait: all of it from k on rank 2, short-term 30; the 30 it
    // propagated to rank 0 reach k as long-term cost of the Late Receiver
    // wait they explain.
    CHECK(r.own(Metric::DelayLateSender, 2, "main/k") == Approx(ns(30)));
    CHECK(r.own(Metric::DelayLateReceiverLongterm, 2, "main/k") == Approx(ns(30)));
    CHECK(all_ranks(r, Metric::DelayLateSenderLongterm, 3) == 0.0);
    // All waiting (35 + 30) is charged, each pattern's to its own metrics.
    CHECK(all_ranks(r, Metric::Delay, 3) == Approx(ns(35 + 30)));
    check_conservation(r, 3, Metric::MpiLateReceiver, Metric::DelayLateReceiver,
                       Metric::DelayLateReceiverLongterm);
    check_conservation(r, 3, Metric::MpiLateSender, Metric::DelayLateSender,
                       Metric::DelayLateSenderLongterm);

    // Rank 0's Late Receiver wait: 30 of it indirect (rank 1's waiting), 5
    // direct; it causes nothing further.
    CHECK(r.own(Metric::MpiWaitIndirectLatereceiver, 0, "main/MPI_Send") == Approx(ns(30)));
    CHECK(r.own(Metric::MpiWaitDirectLatereceiver, 0, "main/MPI_Send") == Approx(ns(5)));
    CHECK(r.own(Metric::MpiWaitTerminalLr, 0, "main/MPI_Send") == Approx(ns(35)));
    CHECK(r.own(Metric::MpiWaitPropagatingLr, 0, "main/MPI_Send") == 0.0);
    // Rank 1's Late Sender wait propagated.
    CHECK(r.own(Metric::MpiWaitPropagatingLs, 1, "main/MPI_Recv") == Approx(ns(30)));
    CHECK(r.own(Metric::MpiWaitDirectLatesender, 1, "main/MPI_Recv") == Approx(ns(30)));
}

TEST_CASE("delay costs: barrier waits go to the last rank's excess", "[delay]") {
    // Three ranks compute for 10, 10 and 40 ticks, then a barrier: ranks 0
    // and 1 wait 30 each for rank 2. In their interval (since MPI_Init)
    // rank 2 did 30 more of "work" than each of them.
    TraceBuilder t(3);
    for (int rank = 0; rank < 3; ++rank) {
        const Ticks work = rank == 2 ? 40 : 10;
        t.rank(rank).enter(0, "main").init(0, 10).region(10, 10 + work, "work")
            .barrier(10 + work, 50).finalize(50, 60).leave(60);
    }
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(all_ranks(r, Metric::MpiBarrierWait, 3) == Approx(ns(60)));
    CHECK(r.own(Metric::DelayBarrier, 2, "main/work") == Approx(ns(60)));
    CHECK(all_ranks(r, Metric::DelayBarrierLongterm, 3) == 0.0);
    CHECK(r.own(Metric::DelayBarrier, 0, "main/work") == 0.0);
    check_conservation(r, 3, Metric::MpiBarrierWait, Metric::DelayBarrier,
                       Metric::DelayBarrierLongterm);
    // The critical path: from the start to the last MPI_Finalize entry.
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(50)));
}

TEST_CASE("delay costs: a late broadcast root carries the costs", "[delay]") {
    // Root 1 computes 50 before MPI_Bcast, the others 20: each waits 30 at
    // the broadcast (Late Broadcast), caused by the root's excess "prep".
    TraceBuilder t(3);
    for (int rank = 0; rank < 3; ++rank) {
        const Ticks prep = rank == 1 ? 50 : 20;
        t.rank(rank).enter(0, "main").init(0, 10).region(10, 10 + prep, "prep")
            .bcast(10 + prep, 70, 1, 8).finalize(70, 80).leave(80);
    }
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(all_ranks(r, Metric::MpiLateBroadcast, 3) == Approx(ns(60)));
    CHECK(r.own(Metric::Delay12n, 1, "main/prep") == Approx(ns(60)));
    check_conservation(r, 3, Metric::MpiLateBroadcast, Metric::Delay12n, Metric::Delay12nLongterm);
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(70)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/prep") == Approx(ns(50)));
}

TEST_CASE("delay costs: a scan wait in the delayer's interval counts as its activity", "[delay]") {
    // Rank 0 waits in MPI_Recv from 10 to 50 for rank 2 (Late Sender, 40).
    // Since MPI_Init, rank 2 sat in MPI_Scan on {1, 2} from 10 to 42, waiting
    // 30 there for rank 1 (Early Scan, a pattern without delay metric), then
    // computed f for 8. Rank 0 did nothing in the interval. The scan's 32
    // are rank 2's activity: s = 1/40, so MPI_Scan gets 32 and f 8 of the 40.
    TraceBuilder t(3);
    const Comm pair = t.communicator({1, 2}, t.world(), "pair");
    t.rank(0).enter(0, "main").init(0, 10).recv(10, 55, 2, 0, 8).finalize(55, 70).leave(70);
    t.rank(1).enter(0, "main").init(0, 10).region(10, 40, "g").scan(40, 42, 8, pair)
        .finalize(42, 70).leave(70);
    t.rank(2).enter(0, "main").init(0, 10).scan(10, 42, 8, pair).region(42, 50, "f")
        .send(50, 52, 0, 0, 8).finalize(52, 70).leave(70);
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(r.own(Metric::MpiLateSender, 0, "main/MPI_Recv") == Approx(ns(40)));
    REQUIRE(r.own(Metric::MpiEarlyScan, 2, "main/MPI_Scan") == Approx(ns(30)));

    CHECK(r.own(Metric::DelayLateSender, 2, "main/MPI_Scan") == Approx(ns(32)));
    CHECK(r.own(Metric::DelayLateSender, 2, "main/f") == Approx(ns(8)));
    CHECK(all_ranks(r, Metric::DelayLateSenderLongterm, 3) == 0.0);
    check_conservation(r, 3, Metric::MpiLateSender, Metric::DelayLateSender,
                       Metric::DelayLateSenderLongterm);
    // The scan wait explains nothing as a wait: rank 0's wait is direct.
    CHECK(r.own(Metric::MpiWaitDirectLatesender, 0, "main/MPI_Recv") == Approx(ns(40)));
    CHECK(r.own(Metric::MpiWaitIndirectLatesender, 0, "main/MPI_Recv") == 0.0);
}

TEST_CASE("delay costs: switched off with the root-cause option", "[delay]") {
    const AnalysisResults r(figure3_trace(), AnalysisOptions{true, false});
    CHECK(all_ranks(r, Metric::Delay, 3) == 0.0);
    CHECK(all_ranks(r, Metric::WaitstatesDirectVsIndirect, 3) == 0.0);
}

TEST_CASE("delay costs: a collective's delayer begins its interval with each member where they last met",
          "[delay]") {
    // Ranks 0-2 meet in an MPI_Allreduce on {0, 1, 2}; rank 2 enters last.
    //   rank 0: Init 0-10 | w 10-40                            | Allreduce 40-61
    //   rank 1: Init 0-10 | Recv from 2 10-31 (waits 10-30)    | v 31-36 | Allreduce 36-61
    //   rank 2: Init 0-10 | a 10-30 | Send to 1 30-31 | Recv from 3 31-52 (waits 31-50)
    //           | c 52-60 | Allreduce 60-61
    //   rank 3: Init 0-10 | b 10-50 | Send to 2 50-52
    // Rank 0 waits 20, rank 1 waits 24 for rank 2. Rank 2's interval with
    // rank 0 begins at MPI_Init (whose time is all synchronization there):
    // a 20, MPI_Send 1, MPI_Recv 21 - 19 of waiting = 2, c 8 against rank 0's
    // w 30: excess 31, waiting 19, s = 20 / 50. With rank 1 it begins at the
    // message to rank 1 (a Late Sender), of whose send only the completion
    // counts (none): MPI_Recv 2, c 8 against v 5: excess 10, s = 24 / 29.
    // Rank 2's wait from 31 to 50 lies in both intervals: it receives
    // 19 (20/50 + 24/29) as long-term N x N cost, which goes on to b on
    // rank 3, the cause of that wait.
    TraceBuilder t(4);
    const Comm trio = t.communicator({0, 1, 2}, t.world(), "trio");
    t.rank(0).enter(0, "main").init(0, 10).region(10, 40, "w").allreduce(40, 61, 8, trio)
        .finalize(61, 70).leave(70);
    t.rank(1).enter(0, "main").init(0, 10).recv(10, 31, 2, 0, 8).region(31, 36, "v")
        .allreduce(36, 61, 8, trio).finalize(61, 70).leave(70);
    t.rank(2).enter(0, "main").init(0, 10).region(10, 30, "a").send(30, 31, 1, 0, 8)
        .recv(31, 52, 3, 0, 8).region(52, 60, "c").allreduce(60, 61, 8, trio).finalize(61, 70).leave(70);
    t.rank(3).enter(0, "main").init(0, 10).region(10, 50, "b").send(50, 52, 2, 0, 8)
        .finalize(52, 70).leave(70);
    const AnalysisResults r(t, kAllAnalyses);
    REQUIRE(r.own(Metric::MpiWaitNxN, 0, "main/MPI_Allreduce") == Approx(ns(20)));
    REQUIRE(r.own(Metric::MpiWaitNxN, 1, "main/MPI_Allreduce") == Approx(ns(24)));
    REQUIRE(r.with_children(Metric::MpiLateSender, 2, "main/MPI_Recv") == Approx(ns(19)));

    const double s0 = 20.0 / 50, s1 = 24.0 / 29;
    CHECK(r.own(Metric::DelayN2n, 2, "main/a") == Approx(ns(20) * s0));
    CHECK(r.own(Metric::DelayN2n, 2, "main/MPI_Send") == Approx(ns(1) * s0));
    CHECK(r.own(Metric::DelayN2n, 2, "main/MPI_Recv") == Approx(ns(2) * (s0 + s1)));
    CHECK(r.own(Metric::DelayN2n, 2, "main/c") == Approx(ns(8) * (s0 + s1)));
    CHECK(r.own(Metric::DelayN2nLongterm, 3, "main/b") == Approx(ns(19) * (s0 + s1)));
    CHECK(r.own(Metric::DelayLateSender, 3, "main/b") == Approx(ns(19)));
    check_conservation(r, 4, Metric::MpiWaitNxN, Metric::DelayN2n, Metric::DelayN2nLongterm);
}

TEST_CASE("delay costs: a Late Receiver posted by MPI_Irecv and completed after a barrier", "[delay]") {
    // The scenario of irecv_late_receiver.hpp, with its hand-derived values.
    const AnalysisResults r(irecv_late_receiver_trace(), kAllAnalyses);
    REQUIRE(r.own(Metric::MpiLateReceiver, 0, "main/MPI_Send") == Approx(ns(5)));
    REQUIRE(r.own(Metric::MpiBarrierWait, 0, "main/MPI_Barrier") == Approx(ns(1)));
    CHECK(r.own(Metric::DelayLateReceiver, 1, "main") == Approx(ns(5)));
    CHECK(r.own(Metric::DelayBarrier, 1, "main") == Approx(ns(1)));
    check_conservation(r, 2, Metric::MpiLateReceiver, Metric::DelayLateReceiver, Metric::DelayLateReceiverLongterm);
    check_conservation(r, 2, Metric::MpiBarrierWait, Metric::DelayBarrier, Metric::DelayBarrierLongterm);
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(50)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Irecv") == Approx(ns(1)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main") == Approx(ns(16)));
}

TEST_CASE("delay costs and critical path: a non-blocking collective awaited in MPI_Wait", "[delay]") {
    // The scenario of nonblocking_allreduce.hpp, with its hand-derived values.
    const AnalysisResults r(nonblocking_allreduce_trace(), kAllAnalyses);
    REQUIRE(r.own(Metric::MpiWaitNxN, 0, "main/MPI_Wait") == Approx(ns(24)));
    REQUIRE(r.own(Metric::MpiWaitNxN, 2, "main/MPI_Wait") == Approx(ns(14)));
    REQUIRE(r.total(Metric::MpiWaitNxN, 1) == 0.0);
    CHECK(all_ranks(r, Metric::MpiNxNCompletion, 3) == 0.0);
    CHECK(r.own(Metric::DelayN2n, 1, "main/prep") == Approx(ns(38)));
    CHECK(all_ranks(r, Metric::DelayN2nLongterm, 3) == 0.0);
    check_conservation(r, 3, Metric::MpiWaitNxN, Metric::DelayN2n, Metric::DelayN2nLongterm);
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(80)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Wait") == Approx(ns(29)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Iallreduce") == Approx(ns(1)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/prep") == Approx(ns(40)));
    // What the ranks did between starting and awaiting the operation is on
    // no path.
    for (int rank = 0; rank < 3; ++rank) CHECK(r.with_children(Metric::CriticalPath, rank, "main/overlap") == 0.0);
}

TEST_CASE("wait states, delay costs and critical path: an MPI_Alltoallv waits for its sources only", "[delay]") {
    // The scenario of sparse_alltoallv.hpp, with its hand-derived values.
    const AnalysisResults r(sparse_alltoallv_trace(), kAllAnalyses);
    REQUIRE(r.own(Metric::MpiWaitNxN, 0, "main/MPI_Alltoallv") == Approx(ns(10)));
    REQUIRE(r.own(Metric::MpiWaitNxN, 2, "main/MPI_Alltoallv") == Approx(ns(35)));
    REQUIRE(r.total(Metric::MpiWaitNxN, 1) == 0.0);
    REQUIRE(r.total(Metric::MpiWaitNxN, 3) == 0.0);
    CHECK(all_ranks(r, Metric::MpiNxNCompletion, 4) == 0.0);
    CHECK(r.own(Metric::DelayN2n, 1, "main/prep") == Approx(ns(10)));
    CHECK(r.own(Metric::DelayN2n, 3, "main/prep") == Approx(ns(35)));
    CHECK(all_ranks(r, Metric::DelayN2nLongterm, 4) == 0.0);
    check_conservation(r, 4, Metric::MpiWaitNxN, Metric::DelayN2n, Metric::DelayN2nLongterm);
    CHECK(all_ranks(r, Metric::CriticalPath, 4) == Approx(ns(60)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Alltoallv") == Approx(ns(30)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/prep") == Approx(ns(20)));
    CHECK(r.with_children(Metric::CriticalPath, 3, "main/prep") == 0.0);
}

TEST_CASE("wait states, delay costs and critical path: a Late Sender waited for in a blocking probe", "[delay]") {
    // The scenario of probed_late_sender.hpp, with its hand-derived values.
    for (const auto& [probe, receive] : {std::pair{"MPI_Probe", "MPI_Recv"}, std::pair{"MPI_Mprobe", "MPI_Mrecv"}}) {
        INFO(probe << " then " << receive);
        const std::string main = "main/";
        const AnalysisResults r(probed_late_sender_trace(probe, receive), kAllAnalyses);
        CHECK(r.own(Metric::MpiLateSender, 1, main + probe) == Approx(ns(35)));
        CHECK(r.own(Metric::MpiLateSender, 1, main + receive) == 0.0);
        CHECK(r.own(Metric::DelayLateSender, 0, "main/work") == Approx(ns(35)));
        check_conservation(r, 2, Metric::MpiLateSender, Metric::DelayLateSender, Metric::DelayLateSenderLongterm);
        CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(65)));
        CHECK(r.own(Metric::CriticalPath, 1, "main") == Approx(ns(7 + 2)));
        CHECK(r.with_children(Metric::CriticalPath, 1, main + receive) == Approx(ns(5)));
        CHECK(r.with_children(Metric::CriticalPath, 1, main + probe) == Approx(ns(1)));
        CHECK(r.with_children(Metric::CriticalPath, 0, "main/work") == Approx(ns(40)));
    }
}

TEST_CASE("wait states, delay costs and critical path: a Late Sender waited for in a polling loop", "[delay]") {
    // The scenario of polled_late_sender.hpp, with its hand-derived values.
    struct Variant {
        PollingStyle style;
        std::string poll, completion;
    };
    for (const Variant& v : {Variant{PollingStyle::Test, "main/MPI_Test", "main/MPI_Test"},
                             Variant{PollingStyle::Iprobe, "main/MPI_Iprobe", "main/MPI_Recv"},
                             Variant{PollingStyle::Improbe, "main/MPI_Improbe", "main/MPI_Mrecv"}}) {
        INFO(v.poll << " then " << v.completion);
        const AnalysisResults r(polled_late_sender_trace(v.style), kAllAnalyses);
        CHECK(r.own(Metric::MpiLateSender, 1, v.poll) == Approx(ns(15)));
        CHECK(all_ranks(r, Metric::MpiLateSender, 2) == Approx(ns(15)));
        CHECK(r.own(Metric::MpiClsCount, 1, v.completion) == 1.0);
        CHECK(r.own(Metric::DelayLateSender, 0, "main/work") == Approx(ns(15)));
        check_conservation(r, 2, Metric::MpiLateSender, Metric::DelayLateSender, Metric::DelayLateSenderLongterm);
        CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(65)));
        CHECK(r.with_children(Metric::CriticalPath, 0, "main/work") == Approx(ns(30)));
        if (v.style == PollingStyle::Test) {
            CHECK(r.own(Metric::CriticalPath, 1, "main") == Approx(ns(9 + 8)));
            CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Test") == Approx(ns(3 + 5)));
        } else {
            CHECK(r.own(Metric::CriticalPath, 1, "main") == Approx(ns(9 + 2 + 5)));
            CHECK(r.with_children(Metric::CriticalPath, 1, v.completion) == Approx(ns(3)));
            CHECK(r.with_children(Metric::CriticalPath, 1, v.poll) == Approx(ns(1 + 5)));
        }
    }
}

TEST_CASE("wait states, delay costs and critical path: a Late Sender polled for, then waited for in MPI_Wait",
          "[delay]") {
    // polled_then_waited_trace() in polled_late_sender.hpp, hand-derived.
    const AnalysisResults r(polled_then_waited_trace(), kAllAnalyses);
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Test") == Approx(ns(5)));
    CHECK(r.own(Metric::MpiLateSender, 1, "main/MPI_Wait") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiClsCount, 1, "main/MPI_Wait") == 1.0);
    CHECK(r.own(Metric::DelayLateSender, 0, "main/work") == Approx(ns(15)));
    check_conservation(r, 2, Metric::MpiLateSender, Metric::DelayLateSender, Metric::DelayLateSenderLongterm);
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(65)));
    CHECK(r.own(Metric::CriticalPath, 1, "main") == Approx(ns(9)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Wait") == Approx(ns(16)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Test") == 0.0);
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/work") == Approx(ns(30)));
    // The wait's classification where the wait was: all direct (rank 0
    // did not wait), split as the Late Sender.
    CHECK(r.own(Metric::MpiWaitDirectLatesender, 1, "main/MPI_Test") == Approx(ns(5)));
    CHECK(r.own(Metric::MpiWaitDirectLatesender, 1, "main/MPI_Wait") == Approx(ns(10)));
    CHECK(r.own(Metric::MpiWaitTerminalLs, 1, "main/MPI_Wait") == Approx(ns(10)));
    // Without its waits rank 1 was active 16 in MPI_Wait (all on the path)
    // and 0 in MPI_Test.
    CHECK(r.own(Metric::CriticalPathActivities, 1, "main/MPI_Wait") == Approx(ns(16)));
    CHECK(r.own(Metric::NonCriticalPathActivities, 1, "main/MPI_Wait") == Approx(0.0).margin(1e-15));
    CHECK(r.own(Metric::NonCriticalPathActivities, 1, "main/MPI_Test") == Approx(0.0).margin(1e-15));
}
