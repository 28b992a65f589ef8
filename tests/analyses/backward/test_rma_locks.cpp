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

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

constexpr const char* kLock = "main/MPI_Win_lock";
constexpr const char* kUnlock = "main/MPI_Win_unlock";
constexpr const char* kPut = "main/MPI_Put";

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
