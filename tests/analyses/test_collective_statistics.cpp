// Per-call statistics of collective operations: wait-before, execution and
// wait-after of every call, on scenarios whose values follow by hand from
// the timestamps in the comments (1 tick = 1 ns).
#include <catch2/catch.hpp>

#include "analyses/profile/collective_statistics.hpp"
#include "tests/analyses/analysis_harness.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

struct Parts {
    double before, execution, after;
};

void check_parts(const AnalysisResults& r, int rank, const char* path, Parts want) {
    INFO("rank " << rank << " at " << path);
    CHECK(r.own(Metric::CollWaitBefore, rank, path) == Approx(ns(static_cast<Ticks>(want.before))).margin(1e-15));
    CHECK(r.own(Metric::CollExecution, rank, path) == Approx(ns(static_cast<Ticks>(want.execution))).margin(1e-15));
    CHECK(r.own(Metric::CollWaitAfter, rank, path) == Approx(ns(static_cast<Ticks>(want.after))).margin(1e-15));
    CHECK(r.own(Metric::CollCalls, rank, path) == 0.0);
}

}  // namespace

TEST_CASE("collective statistics: the three parts of one call", "[collective-statistics]") {
    // begin, end, last begin, first end -> before, execution, after.
    // Everyone inside at once (last begin 40 < first end 45):
    const CollectiveCallParts early = collective_call_parts(10, 50, 40, 45);
    CHECK(early.wait_before == 30);
    CHECK(early.execution == 5);
    CHECK(early.wait_after == 5);
    // A member left (first end 20) before the last one began (40): no
    // execution; a rank still inside after 40 waits after from there.
    const CollectiveCallParts late = collective_call_parts(10, 60, 40, 20);
    CHECK(late.wait_before == 30);
    CHECK(late.execution == 0);
    CHECK(late.wait_after == 20);
    // The rank that left first, at 20, before the last begin: all waiting.
    const CollectiveCallParts gone = collective_call_parts(10, 20, 40, 20);
    CHECK(gone.wait_before == 10);
    CHECK(gone.execution == 0);
    CHECK(gone.wait_after == 0);
}

TEST_CASE("collective statistics: a barrier and an allreduce per rank", "[collective-statistics]") {
    // Barrier: enters 10, 20, 40, leaves 45, 50, 48 -> last begin 40, first
    // end 45: execution 5 on every rank.
    // Allreduce: enters 60, 70, 55, leaves 90, 80, 85 -> last begin 70,
    // first end 80: execution 10.
    const Ticks b_in[] = {10, 20, 40}, b_out[] = {45, 50, 48};
    const Ticks a_in[] = {60, 70, 55}, a_out[] = {90, 80, 85};
    TraceBuilder t(3);
    for (int k = 0; k < 3; ++k)
        t.rank(k).enter(0, "main").barrier(b_in[k], b_out[k]).allreduce(a_in[k], a_out[k], 8).leave(100);
    const AnalysisResults r(t);
    check_parts(r, 0, "main/MPI_Barrier", {30, 5, 0});
    check_parts(r, 1, "main/MPI_Barrier", {20, 5, 5});
    check_parts(r, 2, "main/MPI_Barrier", {0, 5, 3});
    check_parts(r, 0, "main/MPI_Allreduce", {10, 10, 10});
    check_parts(r, 1, "main/MPI_Allreduce", {0, 10, 0});
    check_parts(r, 2, "main/MPI_Allreduce", {15, 10, 5});
}

TEST_CASE("collective statistics: a reduce whose ranks leave before the root", "[collective-statistics]") {
    // Root 0 enters at 10 and leaves at 60; rank 1 sends 20-22, rank 2
    // 40-41. Last begin 40, first end 22: no execution. Root: before 30,
    // after 60 - 40 = 20. Rank 1 left at 22 < 40: all 2 ticks before.
    // Rank 2 began last: after 41 - 40 = 1.
    TraceBuilder t(3);
    const Ticks in[] = {10, 20, 40}, out[] = {60, 22, 41};
    for (int k = 0; k < 3; ++k) t.rank(k).enter(0, "main").reduce(in[k], out[k], 0, 8).leave(100);
    const AnalysisResults r(t);
    check_parts(r, 0, "main/MPI_Reduce", {30, 0, 20});
    check_parts(r, 1, "main/MPI_Reduce", {2, 0, 0});
    check_parts(r, 2, "main/MPI_Reduce", {0, 0, 1});
}

TEST_CASE("collective statistics: sub-communicators and MPI_Init, MPI_Finalize", "[collective-statistics]") {
    // Ranks 0 and 2 share a communicator; their allgather (enters 20 and
    // 30, leaves 35 and 36) does not involve rank 1. Init: all 0-5; Finalize:
    // enters 50, 60, 70, leaves 80. Allgather: last begin 30, first end 35.
    TraceBuilder t(3);
    const Comm pair = t.communicator({0, 2}, t.world(), "pair");
    for (int k = 0; k < 3; ++k) t.rank(k).enter(0, "main").init(0, 5);
    t.rank(0).allgather(20, 35, 8, pair);
    t.rank(2).allgather(30, 36, 8, pair);
    const Ticks fin[] = {50, 60, 70};
    for (int k = 0; k < 3; ++k) t.rank(k).finalize(fin[k], 80).leave(90);
    const AnalysisResults r(t);
    check_parts(r, 0, "main/MPI_Allgather", {10, 5, 0});
    check_parts(r, 2, "main/MPI_Allgather", {0, 5, 1});
    CHECK(r.own(Metric::CollExecution, 1, "main/MPI_Allgather") == 0.0);
    check_parts(r, 0, "main/MPI_Init", {0, 5, 0});
    check_parts(r, 0, "main/MPI_Finalize", {20, 10, 0});
    check_parts(r, 1, "main/MPI_Finalize", {10, 10, 0});
}
