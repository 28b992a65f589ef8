// Wait for Progress in passive target epochs: an origin's call that began
// while its target was outside MPI waited until the target called MPI, on
// exact scenarios in ticks of 1 ns. Rank 0 is the target; it calls MPI
// once, MPI_Comm_rank, between two stretches of work; rank 1 (and rank 2)
// lock its window.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/rma_call_paths.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;
using namespace hindsight::testing::rma_paths;

namespace {


// Rank 0 works until `enters_mpi`, runs MPI_Comm_rank for 2, works on.
void target(TraceBuilder& t, Ticks enters_mpi) {
    t.rank(0).enter(0, "main").region(0, enters_mpi, "work");
    t.rank(0).region(enters_mpi, enters_mpi + 2, "MPI_Comm_rank").region(enters_mpi + 2, 90, "work").leave(100);
}

}  // namespace

TEST_CASE("RMA progress: an unlock waits until the target calls MPI", "[rma][locks][progress]") {
    //   rank 0: work 0-40 | MPI_Comm_rank 40-42 | work 42-90
    //   rank 1: lock 10-11 | put 12-14 | unlock 20-45
    // The lock and the put ended before rank 0 entered MPI at 40: they did
    // not wait. The unlock, from 20, waited until 40: 20.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    target(t, 40);
    t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, true).put(12, 14, win, 0, 8);
    t.rank(1).win_unlock(20, 45, win, 0).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncWaitForProgress, 1, kUnlock) == Approx(ns(20)));
    CHECK(r.own(Metric::MpiRmaSyncPassive, 1, kUnlock) == Approx(ns(5)));
    CHECK(r.own(Metric::MpiRmaSyncWaitForProgress, 1, kLock) == 0.0);
    CHECK(r.total(Metric::MpiRmaCommWaitForProgress, 1) == 0.0);
    CHECK(r.total(Metric::MpiRmaSyncLockCompetition, 1) == 0.0);
    // Delay costs: until the unlock at 20, rank 1 did 17 of main, 1 of lock
    // and 2 of put; rank 0, until MPI_Comm_rank at 40, 40 of work, all of
    // it in excess. The 20 go to rank 0's work.
    CHECK(r.own(Metric::DelayRmaWaitForProgress, 0, "main/work") == Approx(ns(20)));
    CHECK(all_ranks(r, Metric::DelayRmaWaitForProgressAggregate, 2) == Approx(ns(20)));
}

TEST_CASE("RMA progress: a transfer waits in one-sided communication", "[rma][locks][progress]") {
    //   rank 0: work 0-40 | MPI_Comm_rank 40-42 | work 42-90
    //   rank 1: lock 10-11 | put 12-45 | unlock 46-47
    // The put waited from 12 until 40: 28, as one-sided communication; the
    // unlock began after rank 0's last MPI call: no wait.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    target(t, 40);
    t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, false).put(12, 45, win, 0, 8);
    t.rank(1).win_unlock(46, 47, win, 0).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaCommWaitForProgress, 1, kPut) == Approx(ns(28)));
    CHECK(r.own(Metric::MpiRmaCommunication, 1, kPut) == Approx(ns(5)));
    CHECK(r.total(Metric::MpiRmaSyncWaitForProgress, 1) == 0.0);
}

TEST_CASE("RMA progress: a flush that completes a transfer waits for the target", "[rma][locks][progress]") {
    //   rank 0: work 0-40 | MPI_Comm_rank 40-42 | work 42-90
    //   rank 1: lock 10-11 | put 12-14 | flush 20-45 | unlock 46-47
    // The flush, which completes the put, waited from 20 until rank 0
    // entered MPI at 40: 20, in synchronization.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    target(t, 40);
    t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, true).put(12, 14, win, 0, 8);
    t.rank(1).win_flush(20, 45, win, 0).win_unlock(46, 47, win, 0).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncWaitForProgress, 1, "main/MPI_Win_flush") == Approx(ns(20)));
    CHECK(r.total(Metric::MpiRmaSyncWaitForProgress, 1) == Approx(ns(20)));
    CHECK(r.total(Metric::MpiRmaCommWaitForProgress, 1) == 0.0);
    CHECK(r.own(Metric::DelayRmaWaitForProgress, 0, "main/work") == Approx(ns(20)));
}

TEST_CASE("RMA progress: a local flush needs no target; the flush after it does", "[rma][locks][progress]") {
    //   rank 0: work 0-40 | MPI_Comm_rank 40-42 | work 42-90
    // (a) rank 1: lock 10-11 | put 12-14 | flush_local 20-45 | unlock 46-47
    //     The local flush completes the put at the origin only: it did not
    //     need rank 0 and did not wait; the unlock began after rank 0's
    //     MPI call.
    // (b) rank 1: lock 10-11 | put 12-14 | flush_local 15-16 | flush 20-45 |
    //     unlock 46-47. The flush completes the put at its target: it
    //     waited from 20 until 40.
    for (const bool flushed_after : {false, true}) {
        TraceBuilder t(2);
        const RmaWindow win = t.window(t.world());
        target(t, 40);
        t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, true).put(12, 14, win, 0, 8);
        if (flushed_after)
            t.rank(1).win_flush_local(15, 16, win, 0).win_flush(20, 45, win, 0);
        else
            t.rank(1).win_flush_local(20, 45, win, 0);
        t.rank(1).win_unlock(46, 47, win, 0).leave(100);
        const AnalysisResults r(t, kAllAnalyses);
        CHECK(r.total(Metric::MpiRmaSyncWaitForProgress, 1) == Approx(ns(flushed_after ? 20 : 0)));
        CHECK(r.own(Metric::MpiRmaSyncWaitForProgress, 1, "main/MPI_Win_flush_local") == 0.0);
        CHECK(r.total(Metric::MpiRmaCommWaitForProgress, 1) == 0.0);
    }
}

TEST_CASE("RMA progress: a target inside MPI, or never in it, makes no origin wait", "[rma][locks][progress]") {
    //   rank 0: work 0-15 | MPI_Comm_rank 15-17 | work 17-90
    //   rank 1: lock 16-17 | unlock 20-30
    // At the lock's entry rank 0 was inside MPI; at the unlock's it was
    // outside and never called MPI again.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    target(t, 15);
    t.rank(1).enter(0, "main").win_lock(16, 17, win, 0, true).win_unlock(20, 30, win, 0).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.total(Metric::MpiRmaSyncWaitForProgress, 1) == 0.0);
    CHECK(r.total(Metric::MpiRmaCommWaitForProgress, 1) == 0.0);
}

TEST_CASE("RMA progress: a call that waited for a conflicting lock is Lock Contention only",
          "[rma][locks][progress]") {
    //   rank 0: work 0-50 | MPI_Comm_rank 50-52 | work 52-90
    //   rank 1: lock 10-11 | put 12-14 | unlock 38-40   (exclusive)
    //   rank 2: lock 15-16 | put 17-18 | unlock 30-55   (exclusive)
    // Rank 2's unlock waited for rank 1's lock until 38 (8) and then for
    // rank 0 until 50; the grant fell in it, so it is Lock Contention's.
    // Rank 1's calls all ended before rank 0 entered MPI.
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    target(t, 50);
    t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, true).put(12, 14, win, 0, 8);
    t.rank(1).win_unlock(38, 40, win, 0).leave(100);
    t.rank(2).enter(0, "main").win_lock(15, 16, win, 0, true).put(17, 18, win, 0, 8);
    t.rank(2).win_unlock(30, 55, win, 0).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 2, kUnlock) == Approx(ns(8)));
    for (int rank = 1; rank < 3; ++rank) {
        CHECK(r.total(Metric::MpiRmaSyncWaitForProgress, rank) == 0.0);
        CHECK(r.total(Metric::MpiRmaCommWaitForProgress, rank) == 0.0);
    }
}

TEST_CASE("RMA progress: the critical path goes from the wait to the target's MPI call",
          "[rma][locks][progress][critical-path]") {
    //   rank 0: Init 0-10 | work 10-50 | MPI_Comm_rank 50-52 | more 52-70 | Finalize 70-85
    //   rank 1: Init 0-10 | lock 10-11 | unlock 20-55 | main 55-75 | Finalize 75-85
    // The path ends where the last rank, rank 1, entered MPI_Finalize (75):
    // its main (55-75: 20) and its unlock after the wait (50-55: 5). The
    // unlock waited from 20 for rank 0's MPI_Comm_rank at 50, so the path
    // goes to rank 0 there: its work (10-50: 40) and MPI_Init (10). 75 in all.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").init(0, 10).region(10, 50, "work").region(50, 52, "MPI_Comm_rank");
    t.rank(0).region(52, 70, "more").finalize(70, 85).leave(85);
    t.rank(1).enter(0, "main").init(0, 10).win_lock(10, 11, win, 0, true).win_unlock(20, 55, win, 0);
    t.rank(1).finalize(75, 85).leave(85);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncWaitForProgress, 1, kUnlock) == Approx(ns(30)));
    CHECK(all_ranks(r, Metric::CriticalPath, 2) == Approx(ns(75)));
    CHECK(r.with_children(Metric::CriticalPath, 1, kUnlock) == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main") == Approx(ns(20)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/work") == Approx(ns(40)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Init") == Approx(ns(10)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Comm_rank") == 0.0);
}

TEST_CASE("RMA progress: where the target's MPI call is a synchronization too, the work before it is the delay",
          "[rma][locks][progress][delay]") {
    //   rank 0: work 0-40 | MPI_Barrier 40-60
    //   rank 1: lock 10-11 | unlock 20-45 | main 45-58 | MPI_Barrier 58-60
    // The unlock waited from 20 for rank 0's barrier at 40: 20. Until then
    // rank 1 did 19 of main and 1 of lock, rank 0 40 of work: the 20 go
    // to rank 0's work, not to the barrier that ended the wait.
    // Rank 0 then waits in the barrier from 40 to 58: 18. The two ranks'
    // interval runs from the wait's synchronization: on rank 0 from the
    // barrier's entry (nothing), on rank 1 the unlock after its wait (5)
    // and main (13), which bear the 18.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").region(0, 40, "work").barrier(40, 60).leave(70);
    t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, true).win_unlock(20, 45, win, 0).barrier(58, 60).leave(70);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncWaitForProgress, 1, kUnlock) == Approx(ns(20)));
    CHECK(r.own(Metric::DelayRmaWaitForProgress, 0, "main/work") == Approx(ns(20)));
    CHECK(r.own(Metric::DelayRmaWaitForProgress, 0, "main/MPI_Barrier") == 0.0);
    CHECK(r.own(Metric::MpiBarrierWait, 0, "main/MPI_Barrier") == Approx(ns(18)));
    CHECK(r.own(Metric::DelayBarrier, 1, "main") == Approx(ns(13)));
    CHECK(r.own(Metric::DelayBarrier, 1, kUnlock) == Approx(ns(5)));
}
