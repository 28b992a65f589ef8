// The activity graph's longest path (a forward pass) against the backward
// replay's critical path, and its what-if predictions, on scenarios whose
// values are derived by hand in the comments.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "analyses/graph/what_if.hpp"
#include "common/error.hpp"
#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/analyses/backward/imbalance_benchmark.hpp"
#include "tests/analyses/backward/irecv_late_receiver.hpp"
#include "tests/analyses/backward/nonblocking_allreduce.hpp"
#include "tests/analyses/backward/sparse_alltoallv.hpp"
#include "tests/analyses/backward/late_receiver_chain.hpp"
#include "tests/analyses/backward/sendrecv_exchange.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Every pass, the activity graph's with `what_ifs` and `suggestions`.
AnalysisResults analyze_all(const TraceBuilder& t, const std::vector<std::string>& what_ifs = {},
                            std::size_t suggestions = 0) {
    GraphOptions graph;
    graph.enabled = true;
    for (const std::string& w : what_ifs) graph.what_ifs.push_back(parse_what_if(w));
    graph.suggestions = suggestions;
    return AnalysisResults(t, kAllAnalyses, graph);
}

// The longest path's length and profile equal the critical path's, call
// path by call path, and every rank found the same.
void check_agrees_with_critical_path(const AnalysisResults& r, int ranks) {
    const GraphFindings& g = r.findings(0).graph;
    REQUIRE(g.computed);
    CHECK(g.recorded.length_seconds == Approx(all_ranks(r, Metric::CriticalPath, ranks)));
    const std::size_t paths = r.cube(0).call_paths();
    REQUIRE(g.recorded_profile.size() == paths);
    for (CallPathId c = 0; c < paths; ++c) {
        double critical = 0;
        for (int rank = 0; rank < ranks; ++rank)
            critical += r.cube(rank).get(Metric::CriticalPath, c) + r.cube(rank).get(Metric::CriticalPathImbalance, c);
        INFO("call path " << call_path_text(r.trace(0), c));
        CHECK(g.recorded_profile[c] == Approx(critical).margin(1e-12));
    }
    for (int rank = 1; rank < ranks; ++rank)
        CHECK(r.findings(rank).graph.recorded.length_seconds == g.recorded.length_seconds);
}

double path_share(const GraphScenario& g, const AnalysisResults& r, const std::string& path) {
    for (const auto& [c, seconds] : g.path)
        if (call_path_text(r.trace(0), c) == path) return seconds;
    return 0.0;
}

}  // namespace

TEST_CASE("activity graph: Figure 3's run, the path as recorded", "[activity-graph]") {
    const AnalysisResults r = analyze_all(figure3_trace());
    check_agrees_with_critical_path(r, 3);
    // C entered MPI_Finalize last, at 8; the path: A's Init 1, f 2, g 3,
    // then B's R3 after its wait (1), C's R4 after its wait (1).
    const GraphFindings& g = r.findings(0).graph;
    CHECK(g.recorded.length_seconds == Approx(8.0));
    CHECK(path_share(g.recorded, r, "main/g") == Approx(3.0));
    CHECK(path_share(g.recorded, r, "main/MPI_Recv") == Approx(2.0));
    // Two hops (C -> B -> A). The path, in rounds whatever its length: the
    // ends to everyone (1), the hops' successors asked and answered (2), the
    // chain marked by rank 0 (a count and two all-to-alls, 3), the arrivals
    // told (1), the start's time and the profile summed (2), the largest
    // state (1).
    CHECK(g.hops == 2);
    CHECK(g.walk_rounds == 10);
}

TEST_CASE("activity graph: Figure 3, g on A one unit shorter", "[activity-graph][what-if]") {
    // g on A takes 2 instead of 3 units: A's S3 begins at 5, so B's wait in
    // R3 ends at 5 and B leaves R3 at 6 (the unit after the wait is kept),
    // enters S4 at 6; C's wait in R4 ends at 6, C leaves at 7 and enters
    // MPI_Finalize at 7: the run is 1 unit shorter. A's MPI_Finalize entry
    // moves to 6, B's to 6.5, both before C's.
    const AnalysisResults r = analyze_all(figure3_trace(), {"callpath=main/g,rank=0,scale=0.6666666666666666"});
    const GraphFindings& g = r.findings(0).graph;
    REQUIRE(g.what_ifs.size() == 1);
    CHECK(g.what_ifs[0].length_seconds == Approx(7.0));
    CHECK(path_share(g.what_ifs[0], r, "main/g") == Approx(2.0));
    // Shortening g on C instead changes nothing: C waited in R4 anyway.
    const AnalysisResults c = analyze_all(figure3_trace(), {"callpath=main/g,rank=2,scale=0"});
    CHECK(c.findings(0).graph.what_ifs[0].length_seconds == Approx(8.0));
}

TEST_CASE("activity graph: the imbalance benchmark, balancing work()", "[activity-graph][what-if][imbalance]") {
    // Balanced, every rank's time in work() is the average over the ranks,
    // spread evenly over its visits: the ranks' total is 4 N w in every
    // scenario, so each rank gets N w over N visits: w per visit. Every iteration then ends at w (the
    // barrier takes no time after its wait), so MPI_Finalize is entered at
    // init + N w, against init + N (w + x) as recorded.
    const double recorded = ns(kInit + kIterations * (kWork + kExtra));
    const double balanced = ns(kInit + kIterations * kWork);
    const std::vector<std::pair<const char*, std::function<int(int)>>> scenarios{
        {"static", [](int) { return 0; }},
        {"dynamic", [](int i) { return i % kRanks; }},
        {"mixed", [](int i) { return i < kIterations / 2 ? 0 : 1; }},
    };
    for (const auto& [name, overloaded] : scenarios) {
        INFO(name);
        const AnalysisResults r = analyze_all(imbalance_benchmark(overloaded), {"callpath=main/work,balance"}, 3);
        check_agrees_with_critical_path(r, kRanks);
        const GraphFindings& g = r.findings(0).graph;
        CHECK(g.recorded.length_seconds == Approx(recorded));
        REQUIRE(g.what_ifs.size() == 1);
        CHECK(g.what_ifs[0].length_seconds == Approx(balanced));
        CHECK(path_share(g.what_ifs[0], r, "main/work") == Approx(kIterations * ns(kWork)));
        // The automatic suggestions find work() too, also in the dynamic
        // scenario, where every rank's total time in it is the same and only
        // the critical-path imbalance shows it.
        REQUIRE_FALSE(g.suggestions.empty());
        CHECK(g.suggestions[0].label == "balance main/work");
        CHECK(g.suggestions[0].length_seconds == Approx(balanced));
    }
}

TEST_CASE("activity graph: a pipeline of sends across six ranks", "[activity-graph][what-if]") {
    // Rank 0 computes c for 100 from 10 and sends to rank 1 (send 1 tick);
    // each further rank waits in MPI_Recv from 10 until its predecessor's
    // send begins, leaves 2 ticks later, computes c for 100 and sends on;
    // the last one enters MPI_Finalize after its c. Rank r starts c at
    // T_r = 10 + 102 r: the last (5) ends c at 10 + 510 + 100 = 620.
    // The path crosses every rank: Init 10, c 6 x 100, MPI_Recv 5 x 2.
    constexpr int P = 6;
    TraceBuilder t(P);
    Ticks end = 0;
    for (int r = 0; r < P; ++r) {
        const Ticks start = 10 + 102 * r;
        auto& rank = t.rank(r).enter(0, "main").init(0, 10);
        if (r > 0) rank.recv(10, start, r - 1, 1, 8);
        rank.region(start, start + 100, "c");
        Ticks at = start + 100;
        if (r + 1 < P) {
            rank.send(at, at + 1, r + 1, 1, 8);
            at += 1;
        }
        end = start + 100;
        rank.finalize(at, 700).leave(700);
    }
    REQUIRE(end == 620);
    const AnalysisResults r = analyze_all(t, {"callpath=main/c,rank=2,scale=0.5", "callpath=main/c,scale=0.5"});
    check_agrees_with_critical_path(r, P);
    const GraphFindings& g = r.findings(0).graph;
    CHECK(g.recorded.length_seconds == Approx(ns(620)));
    CHECK(path_share(g.recorded, r, "main/c") == Approx(ns(600)));
    CHECK(path_share(g.recorded, r, "main/MPI_Recv") == Approx(ns(10)));
    // P - 1 hops in each of the three scenarios, whose paths are marked
    // together: the same 10 rounds as Figure 3's two hops (a walk hop by hop
    // would take P rounds).
    CHECK(g.hops == 3 * (P - 1));
    CHECK(g.walk_rounds == 10);
    // Rank 2's c at half: everyone after it 50 earlier. All c at half: 300.
    CHECK(g.what_ifs[0].length_seconds == Approx(ns(570)));
    CHECK(g.what_ifs[1].length_seconds == Approx(ns(320)));
}

TEST_CASE("activity graph: collectives of every shape", "[activity-graph][what-if][collective]") {
    // 4 ranks; after Init (0-10) each runs a region, then a collective:
    //   a, bcast root 1:  a = 10, 40, 10, 10; root in 50-52, the others
    //                     leave at 55 (5 after the root's begin).
    //   b, reduce root 0: b = 5, 8, 5, 25; root in 60-83 (rank 3 begins at
    //                     80), the senders leave 1 after entering.
    //   c, scan:          c = 2, 40, 4, 4 -> begins 85, 101, 65, 85; rank r
    //                     waits for the latest begin of ranks <= r; leaves
    //                     86, 102, 103, 104.
    //   d, allreduce:     d = 4, 4, 13, 2 -> begins 90, 106, 116, 106; all
    //                     leave at 120.
    //   e, barrier:       e = 2, 2, 10, 2 -> all leave at 131.
    // Finalize 131-140 on every rank (rank 0, the lowest, holds the end).
    // The path back from 131: rank 0's barrier after its wait (1) -> rank 2:
    // e 10, its allreduce (last in, 4), d 13, its scan after the wait (2) ->
    // rank 1: c 40, its reduce (a sender, 1), b 8, its bcast (the root, 2),
    // a 40, Init 10. Sum: 131.
    TraceBuilder t(4);
    const Ticks a[] = {10, 40, 10, 10}, b[] = {5, 8, 5, 25}, c[] = {2, 40, 4, 4}, d[] = {4, 4, 13, 2},
                e[] = {2, 2, 10, 2};
    for (int k = 0; k < 4; ++k) {
        auto& rank = t.rank(k).enter(0, "main").init(0, 10).region(10, 10 + a[k], "a");
        const Ticks bcast_end = k == 1 ? 52 : 55;
        rank.bcast(10 + a[k], bcast_end, 1, 8).region(bcast_end, bcast_end + b[k], "b");
        const Ticks reduce_in = bcast_end + b[k];
        const Ticks reduce_end = k == 0 ? 83 : reduce_in + 1;
        rank.reduce(reduce_in, reduce_end, 0, 8).region(reduce_end, reduce_end + c[k], "c");
        const Ticks scan_in = reduce_end + c[k];
        const Ticks scan_end = 86 + (k == 0 ? 0 : 15 + k);
        rank.scan(scan_in, scan_end, 8).region(scan_end, scan_end + d[k], "d");
        rank.allreduce(scan_end + d[k], 120, 8).region(120, 120 + e[k], "e");
        rank.barrier(120 + e[k], 131).finalize(131, 140).leave(140);
    }
    // c on rank 1 at half (20): rank 1 begins the scan at 81, before rank
    // 0's 85, so the scan now waits for rank 0: ranks 1, 2, 3 leave it at
    // 86, 87, 88 (the time after the recorded wait kept). The allreduce
    // begins at 90, 90, 100, 90 and ends 4 after rank 2's begin, at 104;
    // rank 2's e ends at 114, the barrier 1 later: 115.
    const AnalysisResults r = analyze_all(t, {"callpath=main/c,rank=1,scale=0.5"});
    check_agrees_with_critical_path(r, 4);
    const GraphFindings& g = r.findings(0).graph;
    CHECK(g.recorded.length_seconds == Approx(ns(131)));
    CHECK(path_share(g.recorded, r, "main/a") == Approx(ns(40)));
    CHECK(path_share(g.recorded, r, "main/MPI_Scan") == Approx(ns(2)));
    CHECK(g.what_ifs[0].length_seconds == Approx(ns(115)));
}

TEST_CASE("activity graph: agrees with the critical path on the other scenarios", "[activity-graph]") {
    SECTION("a Late Receiver after a Late Sender") {
        // The path: rank 0 enters MPI_Finalize at 50 (lowest of 0 and 1);
        // its send waited for rank 1's receive from 0, posted at 45 after
        // rank 1 waited for rank 2's send at 40: 10 (Init) + 30 (k) + 5
        // + 5 = 50.
        const AnalysisResults r = analyze_all(late_receiver_chain_trace());
        check_agrees_with_critical_path(r, 3);
        CHECK(r.findings(0).graph.recorded.length_seconds == Approx(ns(50)));
    }
    SECTION("a Late Receiver whose receive was posted by MPI_Irecv") {
        const AnalysisResults r = analyze_all(irecv_late_receiver_trace());
        check_agrees_with_critical_path(r, 2);
        CHECK(r.findings(0).graph.recorded.length_seconds == Approx(ns(50)));
    }
    SECTION("an exchange by MPI_Sendrecv") {
        const AnalysisResults r = analyze_all(sendrecv_exchange_trace());
        check_agrees_with_critical_path(r, 2);
        CHECK(r.findings(0).graph.recorded.length_seconds == Approx(6.0));
    }
}

TEST_CASE("activity graph: a non-blocking collective joins nothing, its wait stays activity", "[graph]") {
    // nonblocking_allreduce.hpp: the graph does not model the MPI_Iallreduce
    // (yet), so its lengths stay the recorded times: the run's 80 ticks to
    // the last entry into MPI_Finalize.
    const AnalysisResults r = analyze_all(nonblocking_allreduce_trace());
    CHECK(r.findings(0).graph.recorded.length_seconds == Approx(ns(80)));
}

TEST_CASE("activity graph: an MPI_Alltoallv joins each rank with its sources", "[graph]") {
    // sparse_alltoallv.hpp: the longest path is the critical path's 60
    // ticks; joining every member would make it 80.
    const AnalysisResults r = analyze_all(sparse_alltoallv_trace());
    check_agrees_with_critical_path(r, 4);
    CHECK(r.findings(0).graph.recorded.length_seconds == Approx(ns(60)));
}

TEST_CASE("what-if: parsing", "[what-if]") {
    const WhatIf w = parse_what_if("callpath=main/work,rank=3,scale=0.5");
    CHECK(w.call_path == "main/work");
    CHECK(w.rank == 3);
    CHECK(w.scale == 0.5);
    CHECK_FALSE(w.balance);
    CHECK(parse_what_if("callpath=main/work,balance").balance);
    CHECK_THROWS_AS(parse_what_if("callpath=main/work"), Error);
    CHECK_THROWS_AS(parse_what_if("scale=0.5"), Error);
    CHECK_THROWS_AS(parse_what_if("callpath=main/work,scale=-1"), Error);
    CHECK_THROWS_AS(parse_what_if("callpath=main/work,scale=x"), Error);
    CHECK_THROWS_AS(parse_what_if("callpath=main/work,balance,rank=1"), Error);
    CHECK_THROWS_AS(parse_what_if("callpath=main/work,balance,scale=2"), Error);
    CHECK_THROWS_AS(parse_what_if("callpath=main/work,size=2"), Error);
}
