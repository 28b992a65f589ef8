// The collective operations of an RMA window as wait states (Wait at
// Window Create, Wait at Fence, Wait at Window Free), with their delay
// costs and the critical path through them, on an exact scenario in ticks
// of 1 ns.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/rma_call_paths.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;
using namespace hindsight::testing::rma_paths;

namespace {

// Three ranks create a window on MPI_COMM_WORLD, run a fence epoch and
// free the window; a different rank is late at each of the three, as in
// the timelines of Scalasca's pattern documentation:
//   Init 0-10 | prep 10-(10+p) | MPI_Win_create (10+p)-30 | MPI_Win_fence
//   30-35 | work 35-(35+w) | MPI_Win_fence (35+w)-85 | tail 85-(85+f) |
//   MPI_Win_free (85+f)-110 | Finalize 110-120
// with p = 5, 15, 5 (rank 1 late at the creation), w = 15, 15, 45 (rank 2
// late at the second fence), f = 20, 0, 0 (rank 0 late at the release).
// Hand-derived values:
//  - Wait at Window Create: ranks 0 and 2 wait from 15 until rank 1 begins
//    at 25: 10 each. Wait at Fence: the first fence begins at 30 on every
//    rank (none); at the second ranks 0 and 1 wait from 50 to 80: 30 each.
//    Wait at Window Free: ranks 1 and 2 wait from 85 to 105: 20 each.
//  - What stays window management time: creation 15 - 10 = 5 on ranks 0
//    and 2, 5 on rank 1; release 5 on every rank. Active target
//    synchronization besides the waits: 5 (first fence) + 5 (second).
//  - Delay costs, each wait charged to the late rank's excess since the
//    previous synchronization (all ranks left it together): at the
//    creation rank 1's prep 15 against 5 (10 over each of two waiters: 20,
//    on rank 1's prep); at the fence rank 2's work 45 against 15 (30 over
//    each: 60, on rank 2's work); at the release rank 0's tail 20 against
//    nothing (20 over each: 40, on rank 0's tail). All short-term: no wait
//    passed on into a later one.
//  - Critical path: all ranks enter MPI_Finalize at 110; rank 0, the
//    lowest, holds it: its free (5; it was the last there), its tail (20),
//    its second fence after rank 2 began it (80-85: 5); then rank 2's work
//    (45), its first fence (5), its creation after rank 1 began it (25-30:
//    5); then rank 1's prep (15) and MPI_Init (10): 110.
TraceBuilder late_window_ranks() {
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    const Ticks prep[] = {5, 15, 5}, work[] = {15, 15, 45}, tail[] = {20, 0, 0};
    for (int r = 0; r < 3; ++r) {
        auto& rank = t.rank(r).enter(0, "main").init(0, 10).region(10, 10 + prep[r], "prep");
        rank.win_create(10 + prep[r], 30, win).win_fence(30, 35, win).region(35, 35 + work[r], "work");
        rank.win_fence(35 + work[r], 85, win);
        if (tail[r] > 0) rank.region(85, 85 + tail[r], "tail");
        rank.win_free(85 + tail[r], 110, win).finalize(110, 120).leave(120);
    }
    return t;
}


}  // namespace

TEST_CASE("RMA: waits at window creation, fence and release", "[rma]") {
    const AnalysisResults r(late_window_ranks(), kAllAnalyses);
    const double create_wait[] = {10, 0, 10}, fence_wait[] = {30, 30, 0}, free_wait[] = {0, 20, 20};
    for (int k = 0; k < 3; ++k) {
        INFO("rank " << k);
        CHECK(r.own(Metric::MpiRmaWaitAtCreate, k, kCreate) == Approx(ns(create_wait[k])));
        CHECK(r.own(Metric::MpiRmaWaitAtFence, k, kFence) == Approx(ns(fence_wait[k])));
        CHECK(r.own(Metric::MpiRmaWaitAtFree, k, kFree) == Approx(ns(free_wait[k])));
        // The rest stays the window's time.
        CHECK(r.own(Metric::MpiMgmtWin, k, kCreate) == Approx(ns(5)));
        CHECK(r.own(Metric::MpiMgmtWin, k, kFree) == Approx(ns(5)));
        CHECK(r.own(Metric::MpiRmaSyncActive, k, kFence) == Approx(ns(5 + 5)));
        // No other pattern takes the waiting.
        CHECK(r.total(Metric::MpiBarrierWait, k) == 0.0);
        CHECK(r.total(Metric::MpiWaitNxN, k) == 0.0);
        CHECK(r.total(Metric::MpiBarrierCompletion, k) == 0.0);
    }
}

TEST_CASE("RMA: the late rank's work bears the delay costs of the window's waits", "[rma][delay]") {
    const AnalysisResults r(late_window_ranks(), kAllAnalyses);
    CHECK(r.own(Metric::DelayRmaCreate, 1, "main/prep") == Approx(ns(20)));
    CHECK(all_ranks(r, Metric::DelayRmaCreateAggregate, 3) == Approx(ns(20)));
    CHECK(r.own(Metric::DelayRmaFence, 2, "main/work") == Approx(ns(60)));
    CHECK(all_ranks(r, Metric::DelayRmaFenceAggregate, 3) == Approx(ns(60)));
    CHECK(r.own(Metric::DelayRmaFree, 0, "main/tail") == Approx(ns(40)));
    CHECK(all_ranks(r, Metric::DelayRmaFreeAggregate, 3) == Approx(ns(40)));
    CHECK(all_ranks(r, Metric::DelayRmaCreateLongterm, 3) == 0.0);
    CHECK(all_ranks(r, Metric::DelayRmaFenceLongterm, 3) == 0.0);
    CHECK(all_ranks(r, Metric::DelayRmaFreeLongterm, 3) == 0.0);
    // No other pattern's costs.
    CHECK(all_ranks(r, Metric::DelayBarrierAggregate, 3) == 0.0);
    CHECK(all_ranks(r, Metric::DelayN2nAggregate, 3) == 0.0);
}

TEST_CASE("RMA: the critical path passes the window's collective operations", "[rma][critical-path]") {
    const AnalysisResults r(late_window_ranks(), kAllAnalyses);
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(110)));
    CHECK(r.with_children(Metric::CriticalPath, 0, kFree) == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/tail") == Approx(ns(20)));
    CHECK(r.with_children(Metric::CriticalPath, 0, kFence) == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 2, "main/work") == Approx(ns(45)));
    CHECK(r.with_children(Metric::CriticalPath, 2, kFence) == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 2, kCreate) == Approx(ns(5)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/prep") == Approx(ns(15)));
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/MPI_Init") == Approx(ns(10)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/work") == 0.0);
    CHECK(r.with_children(Metric::CriticalPath, 1, "main/work") == 0.0);
}

TEST_CASE("RMA: a fence the members passed at different times synchronized nobody", "[rma]") {
    // Rank 0 is in the fence 10-12, rank 1 only from 20 to 22: rank 0 left
    // before rank 1 entered, which a fence that ends and opens no epoch may
    // do. No wait (not 12 - 10 = 2 on rank 0), no clock-condition
    // violation, the fence's time stays active target synchronization; the
    // second fence, 30-40 and 35-40, synchronized: rank 0 waits 5.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    const Ticks first[] = {10, 20}, second[] = {30, 35};
    for (int r = 0; r < 2; ++r)
        t.rank(r).enter(0, "main").win_fence(first[r], first[r] + 2, win).win_fence(second[r], 40, win).leave(50);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaWaitAtFence, 0, kFence) == Approx(ns(5)));
    CHECK(r.total(Metric::MpiRmaWaitAtFence, 1) == 0.0);
    CHECK(r.own(Metric::MpiRmaSyncActive, 0, kFence) == Approx(ns(2 + 5)));
    CHECK(r.own(Metric::MpiRmaSyncActive, 1, kFence) == Approx(ns(2 + 5)));
    for (int k = 0; k < 2; ++k) CHECK(r.findings(k).clock_violations.collective == 0);
}

TEST_CASE("RMA: Early Fence, the part of a fence's wait for the epoch's last access to the rank", "[rma]") {
    // Scalasca's Early Fence situation: rank 0 enters the epoch's closing
    // fence at 10, while rank 1 still computes (5-20), puts to rank 0
    // (20-25) and enters the fence at 30; both leave at 40. Rank 0 waits
    // 30 - 10 = 20 at the fence, of which 25 - 10 = 15 until the put to it
    // was issued: Early Fence; 5 stays Wait at Fence. Rank 1 waits nothing.
    // A put of rank 0 to rank 1 before (6-8) does not make rank 1 wait.
    TraceBuilder t(2);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").win_fence(0, 5, win).put(6, 8, win, 1, 8).win_fence(10, 40, win).leave(50);
    t.rank(1).enter(0, "main").win_fence(0, 5, win).region(5, 20, "work").put(20, 25, win, 0, 8);
    t.rank(1).win_fence(30, 40, win).leave(50);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaEarlyFence, 0, kFence) == Approx(ns(15)));
    CHECK(r.own(Metric::MpiRmaWaitAtFence, 0, kFence) == Approx(ns(5)));
    CHECK(r.with_children(Metric::MpiRmaWaitAtFence, 0, kFence) == Approx(ns(20)));
    CHECK(r.total(Metric::MpiRmaEarlyFence, 1) == 0.0);
    CHECK(r.total(Metric::MpiRmaWaitAtFence, 1) == 0.0);
    // The whole wait's delay costs, Early Fence included, go to rank 1, whose
    // work and put exceed what rank 0 did in the epoch.
    CHECK(all_ranks(r, Metric::DelayRmaFenceAggregate, 2) == Approx(ns(20)));
    CHECK(r.total(Metric::DelayRmaFence, 0) == 0.0);
}

TEST_CASE("RMA: a fence synchronizes with every other member, needed only by those that accessed the rank",
          "[rma]") {
    // Three ranks, two fences; between them ranks 1 and 2 put to rank 0,
    // rank 0 to rank 1. Each fence counts the other two members on each
    // rank: 4 per rank. The first fence ends an epoch without transfers:
    // both unneeded on every rank. At the second, rank 0 was accessed by
    // both others (none unneeded), rank 1 by rank 0 only (1), rank 2 by
    // nobody (2).
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").win_fence(0, 5, win).put(6, 8, win, 1, 8).win_fence(10, 20, win).leave(30);
    for (int origin = 1; origin < 3; ++origin)
        t.rank(origin).enter(0, "main").win_fence(0, 5, win).put(6, 8, win, 0, 8).win_fence(10, 20, win).leave(30);
    const AnalysisResults r(t, kAllAnalyses);
    const double unneeded[] = {2, 3, 4};
    for (int rank = 0; rank < 3; ++rank) {
        CHECK(r.with_children(Metric::MpiRmaPairsyncCount, rank, kFence) == 4.0);
        CHECK(r.own(Metric::MpiRmaPairsyncUnneededCount, rank, kFence) == unneeded[rank]);
    }
}
