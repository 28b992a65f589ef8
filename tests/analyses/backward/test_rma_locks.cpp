// Lock contention in passive target epochs (MPI_Win_lock ... MPI_Win_unlock):
// an origin waited while another origin held a conflicting lock on the same
// target, on exact scenarios in ticks of 1 ns. Rank 0 is the target of
// both origins, rank 1 asks for its lock first (at 10) and begins to give
// it back at 38, the entry of its MPI_Win_unlock:
//   rank 1: lock 10-11 | put to 0 12-14 | unlock 38-40
// Rank 2 asks for its lock at 15, so it can hold it from 38 on if one of
// the two locks is exclusive; where it waited depends on which of its
// calls ran at 38.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/rma_call_paths.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;
using namespace hindsight::testing::rma_paths;

namespace {


struct Calls {
    Ticks lock_enter, lock_leave, put_enter, put_leave, unlock_enter, unlock_leave;
};

// Rank 2's epoch on rank 0: `second` its calls, exclusive or not as rank 1's
// (`first_exclusive`).
TraceBuilder two_origins(bool first_exclusive, bool second_exclusive, Calls second) {
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").region(0, 90, "work").leave(100);
    t.rank(1).enter(0, "main").win_lock(10, 11, win, 0, first_exclusive).put(12, 14, win, 0, 8);
    t.rank(1).win_unlock(38, 40, win, 0).leave(100);
    t.rank(2).enter(0, "main").win_lock(second.lock_enter, second.lock_leave, win, 0, second_exclusive);
    t.rank(2).put(second.put_enter, second.put_leave, win, 0, 8);
    t.rank(2).win_unlock(second.unlock_enter, second.unlock_leave, win, 0);
    t.rank(2).leave(100);
    return t;
}

}  // namespace

TEST_CASE("RMA locks: an exclusive lock waits in the unlock for the earlier one", "[rma][locks]") {
    // Rank 2: lock 15-16, put 17-18, unlock 30-55: at 38 it was in
    // MPI_Win_unlock, which waited from 30: 8; the rest of its 25 stays
    // passive target synchronization. Rank 1, first, waited for nobody.
    const AnalysisResults r(two_origins(true, true, {15, 16, 17, 18, 30, 55}), kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 2, kUnlock) == Approx(ns(8)));
    CHECK(r.own(Metric::MpiRmaSyncPassive, 2, kUnlock) == Approx(ns(17)));
    CHECK(r.total(Metric::MpiRmaSyncLockCompetition, 1) == 0.0);
    CHECK(r.total(Metric::MpiRmaCommLockCompetition, 2) == 0.0);
    CHECK(r.total(Metric::MpiRmaSyncLockCompetition, 0) == 0.0);
}

TEST_CASE("RMA locks: shared locks do not contend; one exclusive of two does", "[rma][locks]") {
    const Calls second{15, 16, 17, 18, 30, 55};
    const AnalysisResults shared(two_origins(false, false, second), kAllAnalyses);
    CHECK(shared.total(Metric::MpiRmaSyncLockCompetition, 2) == 0.0);
    // Rank 1's lock exclusive, rank 2's shared: rank 2 still waits until 38.
    const AnalysisResults mixed(two_origins(true, false, second), kAllAnalyses);
    CHECK(mixed.own(Metric::MpiRmaSyncLockCompetition, 2, kUnlock) == Approx(ns(8)));
}

TEST_CASE("RMA locks: a blocking lock waits in MPI_Win_lock, a transfer in communication", "[rma][locks]") {
    // Rank 2's MPI_Win_lock runs 15-42: it waited there from 15 to 38: 23.
    const AnalysisResults in_lock(two_origins(true, true, {15, 42, 43, 44, 45, 50}), kAllAnalyses);
    CHECK(in_lock.own(Metric::MpiRmaSyncLockCompetition, 2, kLock) == Approx(ns(23)));
    CHECK(in_lock.total(Metric::MpiRmaSyncLockCompetition, 2) == Approx(ns(23)));
    // Rank 2's put runs 35-45: it waited in it from 35 to 38: 3, as
    // one-sided communication; 7 stays the put's own.
    const AnalysisResults in_put(two_origins(true, true, {15, 16, 35, 45, 50, 55}), kAllAnalyses);
    CHECK(in_put.own(Metric::MpiRmaCommLockCompetition, 2, kPut) == Approx(ns(3)));
    CHECK(in_put.own(Metric::MpiRmaCommunication, 2, kPut) == Approx(ns(7)));
    CHECK(in_put.total(Metric::MpiRmaSyncLockCompetition, 2) == 0.0);
}

TEST_CASE("RMA locks: the holder's work in its epoch bears the Lock Contention costs", "[rma][locks][delay]") {
    // Rank 2 waits 8 in its unlock (30-38) for rank 1's unlock at 38. From
    // the start of the trace, rank 1 did 35 of main, 1 of lock and 2 of put
    // until 38; rank 2, until its unlock at 30, 28 of main, 1 of lock and
    // 1 of put. Rank 1's excess, 7 of main and 1 of put, bears the 8.
    const AnalysisResults r(two_origins(true, true, {15, 16, 17, 18, 30, 55}), kAllAnalyses);
    CHECK(r.own(Metric::DelayRmaLockContention, 1, "main") == Approx(ns(7)));
    CHECK(r.own(Metric::DelayRmaLockContention, 1, kPut) == Approx(ns(1)));
    CHECK(all_ranks(r, Metric::DelayRmaLockContentionAggregate, 3) == Approx(ns(8)));
}

TEST_CASE("RMA locks: a later wait caused by a lock wait goes back to the holder's work", "[rma][locks][delay]") {
    // Rank 0 holds an exclusive lock on rank 2 while it works; rank 1's
    // lock on rank 2 waits for it; all three then free the window:
    //   rank 0: lock 0-1 | held 1-50 | unlock 50-52 | free 52-70
    //   rank 1: lock 5-51 | unlock 51-54 | free 54-70
    //   rank 2: work 0-10 | free 10-70
    // Hand-derived values:
    //  - Lock Contention: rank 1 waits in its lock from 5 until rank 0's
    //    unlock at 50: 45. Wait at Window Free: rank 1 is last (54); rank 0
    //    waits 2, rank 2 44.
    //  - Rank 2's free wait: rank 1's interval with rank 2 is the whole
    //    trace up to 54: 5 of main, 46 - 45 = 1 of lock, 3 of unlock, and
    //    its lock wait (45); rank 2 did 10 of work. s = 1 / (9 + 45): the
    //    excess takes 44 x 9/54 short-term, the lock wait 44 x 45/54 =
    //    110/3 long-term, which it passes on to rank 0.
    //  - Rank 0's free wait: its interval with rank 1 begins at its unlock,
    //    the synchronization: nothing; rank 1's at its lock wait: the rest
    //    of the lock (1) and the unlock (3) take the 2.
    //  - Rank 1's lock wait: until its lock at 5 it did 5 of main; rank 0
    //    until its unlock at 50 did 1 of lock and 49 of held work. The 45
    //    short-term and the 110/3 long-term divide 49 : 1.
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").win_lock(0, 1, win, 2, true).region(1, 50, "held");
    t.rank(0).win_unlock(50, 52, win, 2).win_free(52, 70, win).leave(80);
    t.rank(1).enter(0, "main").win_lock(5, 51, win, 2, true).win_unlock(51, 54, win, 2);
    t.rank(1).win_free(54, 70, win).leave(80);
    t.rank(2).enter(0, "main").region(0, 10, "work").win_free(10, 70, win).leave(80);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 1, kLock) == Approx(ns(45)));
    CHECK(r.total(Metric::MpiRmaWaitAtFree, 2) == Approx(ns(44)));
    CHECK(r.total(Metric::MpiRmaWaitAtFree, 0) == Approx(ns(2)));
    CHECK(r.own(Metric::DelayRmaLockContention, 0, "main/held") == Approx(45e-9 * 49 / 50));
    CHECK(r.own(Metric::DelayRmaLockContention, 0, kLock) == Approx(45e-9 / 50));
    CHECK(r.own(Metric::DelayRmaFreeLongterm, 0, "main/held") == Approx(110e-9 / 3 * 49 / 50));
    CHECK(r.total(Metric::DelayRmaFreeLongterm, 1) == 0.0);
    CHECK(r.own(Metric::DelayRmaFree, 1, "main") == Approx(44e-9 * 5 / 54));
    CHECK(r.own(Metric::DelayRmaFree, 1, kUnlock) == Approx((44.0 * 3 / 54 + 2.0 * 3 / 4) * 1e-9));
    // Every tick of waiting is some delay's cost, under its own pattern.
    CHECK(all_ranks(r, Metric::DelayRmaFreeAggregate, 3) == Approx(ns(46)));
    CHECK(all_ranks(r, Metric::DelayRmaLockContentionAggregate, 3) == Approx(ns(45)));
}

TEST_CASE("RMA locks: the critical path goes from the lock wait to the holder", "[rma][locks][critical-path]") {
    //   rank 0: Init 0-10 | lock 10-11 | held 11-60 | unlock 60-62 | free 62-80 | Finalize 80-90
    //   rank 1: Init 0-10 | lock 15-61 | unlock 61-64 | free 64-80 | Finalize 80-90
    //   rank 2: Init 0-10 | work 10-20 | free 20-80 | Finalize 80-90
    // All enter MPI_Finalize at 80: rank 0, the lowest, holds the path's
    // end. Its free waited for rank 1 (64): it keeps 64-80 (16). Rank 1
    // keeps its unlock (3) and its lock after the grant (60-61: 1); its
    // lock waited from 15 until rank 0's unlock began at 60, so the path
    // goes to rank 0 there: its held work (49), its lock (1) and its
    // MPI_Init (10). 80 in all; rank 1's lock wait and main are not on it.
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").init(0, 10).win_lock(10, 11, win, 2, true).region(11, 60, "held");
    t.rank(0).win_unlock(60, 62, win, 2).win_free(62, 80, win).finalize(80, 90).leave(90);
    t.rank(1).enter(0, "main").init(0, 10).win_lock(15, 61, win, 2, true).win_unlock(61, 64, win, 2);
    t.rank(1).win_free(64, 80, win).finalize(80, 90).leave(90);
    t.rank(2).enter(0, "main").init(0, 10).region(10, 20, "work").win_free(20, 80, win).finalize(80, 90).leave(90);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 1, kLock) == Approx(ns(45)));
    CHECK(all_ranks(r, Metric::CriticalPath, 3) == Approx(ns(80)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Win_free") == Approx(ns(16)));
    CHECK(r.with_children(Metric::CriticalPath, 1, kUnlock) == Approx(ns(3)));
    CHECK(r.with_children(Metric::CriticalPath, 1, kLock) == Approx(ns(1)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/held") == Approx(ns(49)));
    CHECK(r.with_children(Metric::CriticalPath, 0, kLock) == Approx(ns(1)));
    CHECK(r.with_children(Metric::CriticalPath, 0, "main/MPI_Init") == Approx(ns(10)));
    CHECK(r.total(Metric::CriticalPath, 2) == 0.0);
    // The lock's waiting is no activity of rank 1: of its 46 only 1 is.
    CHECK(r.own(Metric::CriticalPathActivities, 1, kLock) + r.own(Metric::NonCriticalPathActivities, 1, kLock) ==
          Approx(ns(1)));
}

TEST_CASE("RMA locks: many origins on one target, shared and exclusive", "[rma][locks]") {
    // Rank 0 is the target. Rank 1 asks for an exclusive lock at 10 and
    // gives it back at 40; ranks 2 and 3 ask for shared locks at 15 and 20,
    // rank 4 for an exclusive one at 25:
    //   rank 1: lock 10-11 | unlock 40-42
    //   rank 2: lock 15-16 | unlock 30-50   (shared)
    //   rank 3: lock 20-21 | unlock 35-60   (shared)
    //   rank 4: lock 25-26 | unlock 38-70   (exclusive)
    // The shared locks conflict with rank 1's only: granted at 40, they
    // waited in their unlocks 10 and 5. Rank 4's conflicts with all three,
    // given back at 40, 30 and 35: granted at 40, it waited 2 in its unlock.
    TraceBuilder t(5);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").region(0, 90, "work").leave(100);
    const Ticks lock[] = {0, 10, 15, 20, 25}, unlock[] = {0, 40, 30, 35, 38}, done[] = {0, 42, 50, 60, 70};
    const bool exclusive[] = {false, true, false, false, true};
    for (int r = 1; r < 5; ++r)
        t.rank(r).enter(0, "main").win_lock(lock[r], lock[r] + 1, win, 0, exclusive[r])
            .win_unlock(unlock[r], done[r], win, 0).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.total(Metric::MpiRmaSyncLockCompetition, 1) == 0.0);
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 2, kUnlock) == Approx(ns(10)));
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 3, kUnlock) == Approx(ns(5)));
    CHECK(r.own(Metric::MpiRmaSyncLockCompetition, 4, kUnlock) == Approx(ns(2)));
    // Each wait's costs go to rank 1, whose unlock ended them all.
    CHECK(all_ranks(r, Metric::DelayRmaLockContentionAggregate, 5) == Approx(ns(17)));
    CHECK(r.with_children(Metric::DelayRmaLockContentionAggregate, 1, "main") == Approx(ns(17)));
}
