// The critical path and the indicators derived from it, on exact scenarios.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/analyses/backward/late_receiver_chain.hpp"

using namespace hindsight;
using namespace hindsight::testing;

namespace {

// Per rank the performance-impact metrics partition the allocation: the
// rank's own time without waits plus its headroom = the path's length.
void check_impact_partition(const AnalysisResults& r, int ranks, double length) {
    for (int rank = 0; rank < ranks; ++rank) {
        const double parts = subtree_total(r, Metric::CriticalPathActivities, rank) +
                             subtree_total(r, Metric::CriticalImbalanceImpact, rank) +
                             subtree_total(r, Metric::NonCriticalPathActivities, rank);
        CHECK(parts == Approx(length));
    }
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
    // Headroom = 8 minus the rank's time without waits up to MPI_Finalize:
    // A 8 - 7 = 1, B 8 - 4.5 = 3.5, C 8 - 6 = 2; spread over the call paths
    // by their excess d_cp - d (MPI_Recv 2, f 2, g 3 on the path).
    //   A: excess MPI_Recv 2 only                      -> all 1 there, inter
    //   B: MPI_Recv 1, f 1, g 3 (sum 5), scale 0.7     -> 0.7, 0.7 intra; 2.1 inter
    //   C: MPI_Recv 1, f 0.5, g 1.5 (sum 3), scale 2/3 -> 2/3, 1/3, 1 intra
    CHECK(r.with_children(Metric::InterPartitionImbalance, A, "main/MPI_Recv") == Approx(1.0));
    CHECK(subtree_total(r, Metric::IntraPartitionImbalance, A) == Approx(0.0));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, B, "main/MPI_Recv") == Approx(0.7));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, B, "main/f") == Approx(0.7));
    CHECK(r.with_children(Metric::InterPartitionImbalance, B, "main/g") == Approx(2.1));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, C, "main/MPI_Recv") == Approx(2.0 / 3));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, C, "main/f") == Approx(1.0 / 3));
    CHECK(r.with_children(Metric::IntraPartitionImbalance, C, "main/g") == Approx(1.0));
    // Activities: time without waits, split by whether the call path is on
    // the path (h and the sends are not).
    CHECK(r.with_children(Metric::CriticalPathActivities, B, "main/MPI_Recv") == Approx(1.0));
    CHECK(r.with_children(Metric::NonCriticalPathActivities, B, "main/h") == Approx(1.0));
    CHECK(r.with_children(Metric::NonCriticalPathActivities, B, "main/MPI_Send") == Approx(0.5));
    CHECK(r.with_children(Metric::CriticalPathActivities, C, "main/g") == Approx(1.5));
    check_impact_partition(r, 3, 8.0);
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
    check_impact_partition(r, 3, ns(50));
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
