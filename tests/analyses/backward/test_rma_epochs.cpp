// The wait states of general active target epochs (MPI_Win_post, _start,
// _complete, _wait): Late Post, Early Wait, Late Complete and the pairwise
// synchronization counts, on exact scenarios in ticks of 1 ns.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/rma_call_paths.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;
using namespace hindsight::testing::rma_paths;

namespace {


// Rank 0 exposes its window to ranks 1 and 2, after working until 30:
//   rank 0: work 0-30 | post 30-32 | wait 40-90
//   rank 1: start 10-35 | put to 0 36-50 | work 50-60 | complete 60-65
//   rank 2: start 5-8 | put to 0 28-34 | work 34-80 | complete 80-85
// Hand-derived values:
//  - Late Post: rank 1's start (an implementation whose start blocks) ran
//    when rank 0 posted at 30: it waited 30 - 10 = 20 there. Rank 2's start
//    had returned; its put ran at 30 and waited 30 - 28 = 2 (Late Post in
//    communication). Neither complete ran at 30.
//  - Early Wait: rank 0 waits from 40 until the last origin began to
//    complete, rank 2 at 80: 40. The last transfer to rank 0 ended at 50
//    (rank 1's put), so 80 - 50 = 30 of it is Late Complete, 10 stays
//    Early Wait's own; the wait's remaining 90 - 80 = 10 and the post's 2
//    stay active target synchronization.
//  - Pairs: rank 0's wait synchronized with 2 origins, both of which put;
//    each origin's complete with 1 target, which it put to: none unneeded.
TraceBuilder late_post_and_early_wait() {
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").region(0, 30, "work").win_post(30, 32, win, {1, 2}).win_wait(40, 90, win, {1, 2});
    t.rank(0).leave(100);
    t.rank(1).enter(0, "main").win_start(10, 35, win, {0}).put(36, 50, win, 0, 8).region(50, 60, "work");
    t.rank(1).win_complete(60, 65, win, {0}).leave(100);
    t.rank(2).enter(0, "main").win_start(5, 8, win, {0}).put(28, 34, win, 0, 8).region(34, 80, "work");
    t.rank(2).win_complete(80, 85, win, {0}).leave(100);
    return t;
}

}  // namespace

TEST_CASE("RMA: Late Post in a blocking start and in a transfer", "[rma][gats]") {
    const AnalysisResults r(late_post_and_early_wait(), kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncLatePost, 1, kStart) == Approx(ns(20)));
    CHECK(r.own(Metric::MpiRmaSyncActive, 1, kStart) == Approx(ns(5)));
    CHECK(r.total(Metric::MpiRmaSyncLatePost, 2) == 0.0);
    CHECK(r.own(Metric::MpiRmaCommLatePost, 2, kPut) == Approx(ns(2)));
    CHECK(r.own(Metric::MpiRmaCommunication, 2, kPut) == Approx(ns(4)));
    CHECK(r.total(Metric::MpiRmaCommLatePost, 1) == 0.0);
    CHECK(r.total(Metric::MpiRmaSyncLatePost, 0) == 0.0);
}

TEST_CASE("RMA: Early Wait and its Late Complete part on the target", "[rma][gats]") {
    const AnalysisResults r(late_post_and_early_wait(), kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaLateComplete, 0, kWait) == Approx(ns(30)));
    CHECK(r.own(Metric::MpiRmaEarlyWait, 0, kWait) == Approx(ns(10)));
    CHECK(r.with_children(Metric::MpiRmaEarlyWait, 0, kWait) == Approx(ns(40)));
    CHECK(r.own(Metric::MpiRmaSyncActive, 0, kWait) == Approx(ns(10)));
    CHECK(r.own(Metric::MpiRmaSyncActive, 0, kPost) == Approx(ns(2)));
    for (int k = 1; k < 3; ++k) CHECK(r.total(Metric::MpiRmaEarlyWait, k) == 0.0);
    CHECK(r.own(Metric::MpiRmaPairsyncCount, 0, kWait) == 2.0);
    CHECK(r.own(Metric::MpiRmaPairsyncCount, 1, kComplete) == 1.0);
    CHECK(r.own(Metric::MpiRmaPairsyncCount, 2, kComplete) == 1.0);
    for (int k = 0; k < 3; ++k) CHECK(r.total(Metric::MpiRmaPairsyncUnneededCount, k) == 0.0);
}

TEST_CASE("RMA: Late Post in the complete, a target without transfers, unneeded pairs", "[rma][gats]") {
    // Rank 0 accesses the windows of ranks 1 and 2 but puts only to rank 1:
    //   rank 0: start 1-2 | put to 1 3-4 | complete 40-60
    //   rank 1: work 0-50 | post 50-52 | wait 55-70
    //   rank 2: post 5-6 | wait 10-65
    // - Late Post: the last post, rank 1's at 50, came while rank 0 was in
    //   its complete (40-60): 50 - 40 = 10 there, nothing in start or put.
    // - Early Wait: rank 1 entered its wait at 55, after rank 0 began to
    //   complete at 40: none. Rank 2 waits from 10 to 40: 30, all of it Late
    //   Complete, since no transfer of the epoch went to rank 2.
    // - Pairs: rank 0's complete synchronized with 2 targets, one of them
    //   (rank 2) unneeded; rank 1's wait with 1, needed; rank 2's wait with
    //   1, unneeded.
    TraceBuilder t(3);
    const RmaWindow win = t.window(t.world());
    t.rank(0).enter(0, "main").win_start(1, 2, win, {1, 2}).put(3, 4, win, 1, 8);
    t.rank(0).win_complete(40, 60, win, {1, 2}).leave(100);
    t.rank(1).enter(0, "main").region(0, 50, "work").win_post(50, 52, win, {0}).win_wait(55, 70, win, {0});
    t.rank(1).leave(100);
    t.rank(2).enter(0, "main").win_post(5, 6, win, {0}).win_wait(10, 65, win, {0}).leave(100);
    const AnalysisResults r(t, kAllAnalyses);
    CHECK(r.own(Metric::MpiRmaSyncLatePost, 0, kComplete) == Approx(ns(10)));
    CHECK(r.own(Metric::MpiRmaSyncActive, 0, kComplete) == Approx(ns(10)));
    CHECK(r.own(Metric::MpiRmaSyncLatePost, 0, kStart) == 0.0);
    CHECK(r.total(Metric::MpiRmaCommLatePost, 0) == 0.0);
    CHECK(r.total(Metric::MpiRmaEarlyWait, 1) == 0.0);
    CHECK(r.total(Metric::MpiRmaLateComplete, 1) == 0.0);
    CHECK(r.own(Metric::MpiRmaLateComplete, 2, kWait) == Approx(ns(30)));
    CHECK(r.own(Metric::MpiRmaEarlyWait, 2, kWait) == 0.0);
    CHECK(r.own(Metric::MpiRmaPairsyncCount, 0, kComplete) == 1.0);
    CHECK(r.own(Metric::MpiRmaPairsyncUnneededCount, 0, kComplete) == 1.0);
    CHECK(r.own(Metric::MpiRmaPairsyncCount, 1, kWait) == 1.0);
    CHECK(r.total(Metric::MpiRmaPairsyncUnneededCount, 1) == 0.0);
    CHECK(r.own(Metric::MpiRmaPairsyncCount, 2, kWait) == 0.0);
    CHECK(r.own(Metric::MpiRmaPairsyncUnneededCount, 2, kWait) == 1.0);
}

TEST_CASE("RMA: the target's work before its late post bears the Late Post costs", "[rma][gats][delay]") {
    // In late_post_and_early_wait(), the waits end at rank 0's post (30),
    // and each origin's interval with rank 0 runs from the start of the
    // trace to the call that waited: rank 1 had 10 of main, rank 2 25 of
    // main and 3 of MPI_Win_start, rank 0 30 of work. Rank 0's excess is
    // its work (30), which bears both waits: 20 (rank 1, in its start) and
    // 2 (rank 2, in its put), short-term.
    const AnalysisResults r(late_post_and_early_wait(), kAllAnalyses);
    CHECK(r.own(Metric::DelayRmaLatePost, 0, "main/work") == Approx(ns(22)));
    CHECK(all_ranks(r, Metric::DelayRmaLatePostAggregate, 3) == Approx(ns(22)));
    CHECK(all_ranks(r, Metric::DelayRmaLatePostLongterm, 3) == 0.0);
}

TEST_CASE("RMA: the last origin's epoch bears the Early Wait costs", "[rma][gats][delay]") {
    // Rank 0's Early Wait (40) ends at rank 2's MPI_Win_complete (80). Their
    // interval begins at their previous synchronization, rank 0's post,
    // where rank 2's put waited: rank 0 did 8 of main after its post (the
    // post itself is the synchronization); rank 2 the rest of its put
    // after the wait (6 - 2 = 4) and its work (46). Its excess, 50, bears
    // the 40: 40 x 4/50 = 3.2 on the put, 40 x 46/50 = 36.8 on the work.
    const AnalysisResults r(late_post_and_early_wait(), kAllAnalyses);
    CHECK(r.own(Metric::DelayRmaEarlyWait, 2, kPut) == Approx(3.2e-9));
    CHECK(r.own(Metric::DelayRmaEarlyWait, 2, "main/work") == Approx(36.8e-9));
    CHECK(all_ranks(r, Metric::DelayRmaEarlyWaitAggregate, 3) == Approx(ns(40)));
    CHECK(r.total(Metric::DelayRmaEarlyWait, 1) == 0.0);
}
