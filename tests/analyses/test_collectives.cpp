// Collective wait states (barrier, n-to-n, 1-to-n, n-to-1, scan,
// MPI_Init / MPI_Finalize), on MPI_COMM_WORLD and on sub-communicators, and
// the collective counts and bytes. Expected values are derived from the
// scenario's timestamps in the comments (1 tick = 1 ns).
#include <catch2/catch.hpp>

#include "tests/analyses/analysis_harness.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Every rank: main 0..100 around one call from `call(rank)`.
template <typename Call>
TraceBuilder around_main(int ranks, Call call) {
    TraceBuilder t(ranks);
    for (int r = 0; r < ranks; ++r) {
        t.rank(r).enter(0, "main");
        call(t, r);
        t.rank(r).leave(100);
    }
    return t;
}

}  // namespace

TEST_CASE("barrier: wait for the last rank, completion after the first left", "[collective]") {
    // Enters 10, 20, 40; leaves 45, 50, 48.
    const Ticks enter[] = {10, 20, 40}, leave[] = {45, 50, 48};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).barrier(enter[k], leave[k]);
    }));
    const char* path = "main/MPI_Barrier";
    // Wait until the last entry (40).
    CHECK(r.own(Metric::MpiBarrierWait, 0, path) == Approx(ns(40 - 10)));
    CHECK(r.own(Metric::MpiBarrierWait, 1, path) == Approx(ns(40 - 20)));
    CHECK(r.own(Metric::MpiBarrierWait, 2, path) == 0.0);
    // Completion after the first exit (45).
    CHECK(r.own(Metric::MpiBarrierCompletion, 0, path) == 0.0);
    CHECK(r.own(Metric::MpiBarrierCompletion, 1, path) == Approx(ns(50 - 45)));
    CHECK(r.own(Metric::MpiBarrierCompletion, 2, path) == Approx(ns(48 - 45)));
    // What is left of the barrier time: 35-30, 30-20-5, 8-3.
    CHECK(r.own(Metric::MpiSyncCollective, 0, path) == Approx(ns(5)));
    CHECK(r.own(Metric::MpiSyncCollective, 1, path) == Approx(ns(5)));
    CHECK(r.own(Metric::MpiSyncCollective, 2, path) == Approx(ns(5)));
    for (int k = 0; k < 3; ++k) {
        CHECK(r.own(Metric::SyncsColl, k, path) == 1.0);
        CHECK(r.total(Metric::CommsCxch, k) == 0.0);
    }
}

TEST_CASE("n x n: all ranks overlap", "[collective]") {
    // Allreduce of 8 bytes: enters 10, 30, 20; leaves 50, 55, 60.
    const Ticks enter[] = {10, 30, 20}, leave[] = {50, 55, 60};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).allreduce(enter[k], leave[k], 8);
    }));
    const char* path = "main/MPI_Allreduce";
    CHECK(r.own(Metric::MpiWaitNxN, 0, path) == Approx(ns(30 - 10)));
    CHECK(r.own(Metric::MpiWaitNxN, 1, path) == 0.0);
    CHECK(r.own(Metric::MpiWaitNxN, 2, path) == Approx(ns(30 - 20)));
    CHECK(r.own(Metric::MpiNxNCompletion, 0, path) == 0.0);
    CHECK(r.own(Metric::MpiNxNCompletion, 1, path) == Approx(ns(55 - 50)));
    CHECK(r.own(Metric::MpiNxNCompletion, 2, path) == Approx(ns(60 - 50)));
    CHECK(r.own(Metric::MpiCollective, 2, path) == Approx(ns(40 - 10 - 10)));
    // Score-P's accounting: N * 8 bytes both ways; an exchange on every rank.
    for (int k = 0; k < 3; ++k) {
        CHECK(r.own(Metric::CommsCxch, k, path) == 1.0);
        CHECK(r.own(Metric::BytesCout, k, path) == 3.0 * 8);
        CHECK(r.own(Metric::BytesCin, k, path) == 3.0 * 8);
    }
}

TEST_CASE("late broadcast: receivers that entered before the root", "[collective]") {
    // Root 0 enters at 30; rank 1 at 10 (waits), rank 2 at 40 (does not).
    const Ticks enter[] = {30, 10, 40};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).bcast(enter[k], 50, 0, 16);
    }));
    const char* path = "main/MPI_Bcast";
    CHECK(r.own(Metric::MpiLateBroadcast, 0, path) == 0.0);
    CHECK(r.own(Metric::MpiLateBroadcast, 1, path) == Approx(ns(30 - 10)));
    CHECK(r.own(Metric::MpiLateBroadcast, 2, path) == 0.0);
    CHECK(r.own(Metric::MpiCollective, 1, path) == Approx(ns(50 - 10 - 20)));
    // The root sends N * 16 and receives 16: an exchange; others only receive.
    CHECK(r.own(Metric::CommsCxch, 0, path) == 1.0);
    CHECK(r.own(Metric::BytesCout, 0, path) == 3.0 * 16);
    CHECK(r.own(Metric::CommsCdst, 1, path) == 1.0);
    CHECK(r.own(Metric::BytesCin, 1, path) == 16.0);
    CHECK(r.own(Metric::BytesCout, 1, path) == 0.0);
}

TEST_CASE("early reduce: the root waits for the last sender", "[collective]") {
    // Root 0 enters at 10; ranks 1 and 2 at 30 and 25.
    const Ticks enter[] = {10, 30, 25};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).reduce(enter[k], 50, 0, 8);
    }));
    const char* path = "main/MPI_Reduce";
    CHECK(r.own(Metric::MpiEarlyReduce, 0, path) == Approx(ns(30 - 10)));
    CHECK(r.own(Metric::MpiEarlyReduce, 1, path) == 0.0);
    CHECK(r.own(Metric::MpiEarlyReduce, 2, path) == 0.0);
    CHECK(r.own(Metric::CommsCxch, 0, path) == 1.0);
    CHECK(r.own(Metric::CommsCsrc, 1, path) == 1.0);
    CHECK(r.own(Metric::BytesCin, 0, path) == 3.0 * 8);
}

TEST_CASE("early reduce: none when the root comes last", "[collective]") {
    const Ticks enter[] = {40, 30, 25};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).gather(enter[k], 50, 0, 8);
    }));
    for (int k = 0; k < 3; ++k) CHECK(r.total(Metric::MpiEarlyReduce, k) == 0.0);
}

TEST_CASE("early scan: waiting for the last lower rank", "[collective]") {
    // Enters 30, 10, 20: rank 1 waits for rank 0 (30), rank 2 too.
    const Ticks enter[] = {30, 10, 20};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).scan(enter[k], 50, 8);
    }));
    const char* path = "main/MPI_Scan";
    CHECK(r.own(Metric::MpiEarlyScan, 0, path) == 0.0);
    CHECK(r.own(Metric::MpiEarlyScan, 1, path) == Approx(ns(30 - 10)));
    CHECK(r.own(Metric::MpiEarlyScan, 2, path) == Approx(ns(30 - 20)));
    // Scan bytes: rank r sends (N - r) * 8 and receives (r + 1) * 8.
    CHECK(r.own(Metric::BytesCout, 2, path) == (3 - 2) * 8.0);
    CHECK(r.own(Metric::BytesCin, 2, path) == (2 + 1) * 8.0);
}

TEST_CASE("early scan: higher ranks do not make lower ones wait", "[collective]") {
    // Exscan; rank 2 is last (40) but only ranks above it could wait for it.
    const Ticks enter[] = {10, 20, 40};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        t.rank(k).exscan(enter[k], 50, 8);
    }));
    CHECK(r.total(Metric::MpiEarlyScan, 0) == 0.0);
    // Rank 1 entered at 20, after rank 0 (10): no wait either.
    CHECK(r.total(Metric::MpiEarlyScan, 1) == 0.0);
    CHECK(r.total(Metric::MpiEarlyScan, 2) == 0.0);
    // Exscan: rank 0 only sends, the last rank only receives.
    CHECK(r.own(Metric::CommsCsrc, 0, "main/MPI_Exscan") == 1.0);
    CHECK(r.own(Metric::CommsCdst, 2, "main/MPI_Exscan") == 1.0);
}

TEST_CASE("MPI_Init completion and wait at MPI_Finalize", "[collective]") {
    TraceBuilder t(2);
    // MPI_Init: rank 0 0..50, rank 1 10..40; MPI_Finalize: 100..150, 130..150.
    t.rank(0).enter(0, "main").init(0, 50).finalize(100, 150).leave(150);
    t.rank(1).enter(0, "main").init(10, 40).finalize(130, 150).leave(150);
    const AnalysisResults r(t);
    // Completion after the first exit from MPI_Init (40); no wait at Init.
    CHECK(r.own(Metric::MpiInitCompletion, 0, "main/MPI_Init") == Approx(ns(50 - 40)));
    CHECK(r.own(Metric::MpiInitCompletion, 1, "main/MPI_Init") == 0.0);
    CHECK(r.own(Metric::MpiInitExit, 0, "main/MPI_Init") == Approx(ns(50 - 10)));
    // Rank 0 waits in MPI_Finalize until rank 1 arrives (130).
    CHECK(r.own(Metric::MpiFinalizeWait, 0, "main/MPI_Finalize") == Approx(ns(130 - 100)));
    CHECK(r.own(Metric::MpiFinalizeWait, 1, "main/MPI_Finalize") == 0.0);
    CHECK(r.own(Metric::MpiInitExit, 0, "main/MPI_Finalize") == Approx(ns(50 - 30)));
    // Neither call counts as a collective operation.
    CHECK(r.total(Metric::SyncsColl, 0) == 0.0);
}

TEST_CASE("sub-communicators: only members synchronize", "[collective]") {
    TraceBuilder t(4);
    const Comm odd = t.communicator({1, 3}, t.world(), "odd");
    for (int k : {0, 2}) t.rank(k).enter(0, "main").leave(100);
    // Barrier on {1, 3}: enters 10 and 30, leaves 35 and 40.
    // Bcast on {1, 3} from comm rank 1 (world rank 3): entered 50 and 60.
    t.rank(1).enter(0, "main").barrier(10, 35, odd).bcast(50, 70, 1, 8, odd).leave(100);
    t.rank(3).enter(0, "main").barrier(30, 40, odd).bcast(60, 70, 1, 8, odd).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiBarrierWait, 1, "main/MPI_Barrier") == Approx(ns(30 - 10)));
    CHECK(r.own(Metric::MpiBarrierWait, 3, "main/MPI_Barrier") == 0.0);
    CHECK(r.own(Metric::MpiBarrierCompletion, 3, "main/MPI_Barrier") == Approx(ns(40 - 35)));
    // World rank 1 (comm rank 0) waited for the root, world rank 3.
    CHECK(r.own(Metric::MpiLateBroadcast, 1, "main/MPI_Bcast") == Approx(ns(60 - 50)));
    CHECK(r.own(Metric::CommsCxch, 3, "main/MPI_Bcast") == 1.0);
    CHECK(r.own(Metric::BytesCout, 3, "main/MPI_Bcast") == 2.0 * 8);
    CHECK(r.total(Metric::SyncsColl, 0) == 0.0);
}

TEST_CASE("intercommunicators: the rooted operations' root is found by its data", "[collective]") {
    // Groups {0, 1} and {2, 3}; the trace names roots as MPI's calls do (the
    // root "self", its group "this group", the other group the root's rank
    // in its group), which the loader reads as no root.
    // A broadcast from world rank 1 to the other group: entered 5, 40, 10,
    // 30; the root sends a block of 16 to each remote member, rank 0 takes
    // no part in the data. Ranks 2 and 3 wait for the root: 30 and 10.
    // Then a reduction to world rank 2 from the other group: entered 25,
    // 35, 10, 5; the root waits for the last sender (35): 25.
    TraceBuilder t(4);
    const Comm inter = t.intercommunicator({0, 1}, {2, 3}, "inter");
    const Ticks bcast_in[] = {5, 40, 10, 30}, reduce_in[] = {25, 35, 10, 5};
    const std::uint32_t bcast_root[] = {OTF2_COLLECTIVE_ROOT_THIS_GROUP, OTF2_COLLECTIVE_ROOT_SELF, 1, 1};
    const std::uint32_t reduce_root[] = {0, 0, OTF2_COLLECTIVE_ROOT_SELF, OTF2_COLLECTIVE_ROOT_THIS_GROUP};
    const std::uint64_t bcast_sent[] = {0, 32, 0, 0}, bcast_received[] = {0, 0, 16, 16};
    const std::uint64_t reduce_sent[] = {8, 8, 0, 0}, reduce_received[] = {0, 0, 16, 0};
    for (int k = 0; k < 4; ++k)
        t.rank(k)
            .enter(0, "main")
            .enter(bcast_in[k], "MPI_Bcast")
            .collective_end_event_raw_root(49, OTF2_COLLECTIVE_OP_BCAST, inter, bcast_root[k], bcast_sent[k],
                                           bcast_received[k])
            .leave(50)
            .enter(50 + reduce_in[k], "MPI_Reduce")
            .collective_end_event_raw_root(99, OTF2_COLLECTIVE_OP_REDUCE, inter, reduce_root[k], reduce_sent[k],
                                           reduce_received[k])
            .leave(100)
            .leave(110);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiLateBroadcast, 2, "main/MPI_Bcast") == Approx(ns(40 - 10)));
    CHECK(r.own(Metric::MpiLateBroadcast, 3, "main/MPI_Bcast") == Approx(ns(40 - 30)));
    CHECK(r.total(Metric::MpiLateBroadcast, 0) == 0.0);
    CHECK(r.total(Metric::MpiLateBroadcast, 1) == 0.0);
    CHECK(r.own(Metric::MpiEarlyReduce, 2, "main/MPI_Reduce") == Approx(ns(35 - 10)));
    for (int k : {0, 1, 3}) CHECK(r.total(Metric::MpiEarlyReduce, k) == 0.0);
}

TEST_CASE("collectives on MPI_COMM_SELF never wait", "[collective]") {
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").barrier(10, 20, t.self()).leave(100);
    t.rank(1).enter(0, "main").barrier(50, 60, t.self()).leave(100);
    const AnalysisResults r(t);
    CHECK(r.total(Metric::MpiBarrierWait, 0) == 0.0);
    CHECK(r.own(Metric::MpiSyncCollective, 0, "main/MPI_Barrier") == Approx(ns(10)));
    CHECK(r.own(Metric::SyncsColl, 1, "main/MPI_Barrier") == 1.0);
}

TEST_CASE("collective clock-condition violation is counted and clamped", "[collective]") {
    TraceBuilder t(2);
    // Rank 0 leaves the barrier (30) before rank 1 seems to enter it (40).
    t.rank(0).enter(0, "main").barrier(10, 30).leave(100);
    t.rank(1).enter(0, "main").barrier(40, 50).leave(100);
    const AnalysisResults r(t);
    CHECK(r.own(Metric::MpiBarrierWait, 0, "main/MPI_Barrier") == Approx(ns(30 - 10)));
    CHECK(r.findings(0).clock_violations.collective == 1);
    CHECK(r.findings(1).clock_violations.collective == 0);
}

TEST_CASE("no clock-condition violation at MPI_Init and MPI_Finalize", "[collective]") {
    TraceBuilder t(2);
    // Rank 0 leaves MPI_Init (5) before rank 1 enters it (8), and MPI_Finalize
    // (20) before rank 1 enters that (30): MPI allows both, they are no
    // clock problem. The barrier in between (rank 0 leaves at 13, rank 1
    // enters at 14) must synchronize, so there it is one.
    t.rank(0).enter(0, "main").init(0, 5).barrier(10, 13).finalize(15, 20).leave(100);
    t.rank(1).enter(0, "main").init(8, 9).barrier(14, 16).finalize(30, 40).leave(100);
    const AnalysisResults r(t);
    CHECK(r.findings(0).clock_violations.collective == 1);  // the barrier
    CHECK(r.findings(1).clock_violations.collective == 0);
    // The waits stay clamped to the time in the call.
    CHECK(r.own(Metric::MpiFinalizeWait, 0, "main/MPI_Finalize") == Approx(ns(20 - 15)));
    CHECK(r.own(Metric::MpiBarrierWait, 0, "main/MPI_Barrier") == Approx(ns(13 - 10)));
}

TEST_CASE("no clock-condition violation when every rank leaves MPI_Finalize before another enters", "[collective]") {
    TraceBuilder t(3);
    t.rank(0).enter(0, "main").finalize(10, 12).leave(100);
    t.rank(1).enter(0, "main").finalize(20, 22).leave(100);
    t.rank(2).enter(0, "main").finalize(30, 32).leave(100);
    const AnalysisResults r(t);
    for (int k = 0; k < 3; ++k) CHECK(r.findings(k).clock_violations.collective == 0);
    // Ranks 0 and 1 spent their whole calls before rank 2 arrived.
    CHECK(r.own(Metric::MpiFinalizeWait, 0, "main/MPI_Finalize") == Approx(ns(12 - 10)));
    CHECK(r.own(Metric::MpiFinalizeWait, 1, "main/MPI_Finalize") == Approx(ns(22 - 20)));
    CHECK(r.total(Metric::MpiFinalizeWait, 2) == 0.0);
}

TEST_CASE("non-blocking collectives: counted where they complete, no wait where all started before", "[collective]") {
    // MPI_Iallreduce entered at 10, 30, 20 (2 ticks each, the request at
    // +1); MPI_Wait 60..70 completes it at 69. A blocking allreduce entered
    // like this would make ranks 0 and 2 wait; the non-blocking one returns
    // at once, and when the ranks await it every member has started it.
    const Ticks enter[] = {10, 30, 20};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        RankBuilder& rank = t.rank(k);
        rank.enter(enter[k], "MPI_Iallreduce");
        const RequestId request = rank.nonblocking_collective_request_event(enter[k] + 1);
        rank.leave(enter[k] + 2);
        rank.enter(60, "MPI_Wait");
        rank.nonblocking_collective_complete_event(69, request, OTF2_COLLECTIVE_OP_ALLREDUCE, kWorld, -1, 24, 24);
        rank.leave(70);
    }));
    for (int k = 0; k < 3; ++k) {
        CHECK(r.total(Metric::MpiWaitNxN, k) == 0.0);
        CHECK(r.total(Metric::MpiNxNCompletion, k) == 0.0);
        // Its exchange counts at the completion, with the recorded bytes.
        CHECK(r.own(Metric::CommsCxch, k, "main/MPI_Wait") == 1.0);
        CHECK(r.own(Metric::BytesCout, k, "main/MPI_Wait") == 24.0);
        CHECK(r.own(Metric::BytesCin, k, "main/MPI_Wait") == 24.0);
        CHECK(r.own(Metric::CommsCxch, k, "main/MPI_Iallreduce") == 0.0);
        CHECK(r.with_children(Metric::Time, k, "main/MPI_Iallreduce") == Approx(ns(2)));
    }
}

TEST_CASE("non-blocking collectives: the wait in MPI_Wait for the members that started later", "[collective]") {
    // MPI_Ibcast from root 2 and MPI_Ireduce to root 0, each started (request
    // at +1 of a 2-tick call) and awaited as below; every MPI_Wait completes
    // its operation at its leave − 1.
    //            Ibcast start  its Wait    Ireduce start  its Wait
    //   rank 0   10 (11)       20-40       45 (46)        50-70
    //   rank 1   12 (13)       14-40       60 (61)        62-70
    //   rank 2   30 (31)       33-40       48 (49)        52-70
    // Late Broadcast: the receivers wait from their MPI_Wait until the root
    // started (31): rank 0 11, rank 1 17; the root nothing.
    // Early Reduce: the root waits from its MPI_Wait (50) for the last
    // sender's start (rank 1, 61): 11; the senders nothing.
    const Ticks bcast_start[] = {10, 12, 30}, bcast_wait[] = {20, 14, 33};
    const Ticks reduce_start[] = {45, 60, 48}, reduce_wait[] = {50, 62, 52};
    const AnalysisResults r(around_main(3, [&](TraceBuilder& t, int k) {
        RankBuilder& rank = t.rank(k);
        rank.enter(bcast_start[k], "MPI_Ibcast");
        const RequestId bcast = rank.nonblocking_collective_request_event(bcast_start[k] + 1);
        rank.leave(bcast_start[k] + 2).enter(bcast_wait[k], "MPI_Wait");
        rank.nonblocking_collective_complete_event(39, bcast, OTF2_COLLECTIVE_OP_BCAST, kWorld, 2, k == 2 ? 16 : 0,
                                                   k == 2 ? 0 : 8);
        rank.leave(40).enter(reduce_start[k], "MPI_Ireduce");
        const RequestId reduce = rank.nonblocking_collective_request_event(reduce_start[k] + 1);
        rank.leave(reduce_start[k] + 2).enter(reduce_wait[k], "MPI_Wait");
        rank.nonblocking_collective_complete_event(69, reduce, OTF2_COLLECTIVE_OP_REDUCE, kWorld, 0, 8,
                                                   k == 0 ? 24 : 0);
        rank.leave(70);
    }));
    CHECK(r.total(Metric::MpiLateBroadcast, 0) == Approx(ns(31 - 20)));
    CHECK(r.total(Metric::MpiLateBroadcast, 1) == Approx(ns(31 - 14)));
    CHECK(r.total(Metric::MpiLateBroadcast, 2) == 0.0);
    CHECK(r.total(Metric::MpiEarlyReduce, 0) == Approx(ns(61 - 50)));
    CHECK(r.total(Metric::MpiEarlyReduce, 1) == 0.0);
    CHECK(r.total(Metric::MpiEarlyReduce, 2) == 0.0);
    // All of it in MPI_Wait, none in the starting calls.
    CHECK(r.own(Metric::MpiLateBroadcast, 1, "main/MPI_Wait") == Approx(ns(17)));
    CHECK(r.with_children(Metric::MpiLateBroadcast, 1, "main/MPI_Ibcast") == 0.0);
}
