// The summary's wait-state section on scenarios whose causes are known: the
// values are derived by hand from the timestamps (doc/backward-analyses.md
// explains the delay costs), the report assembled as rank 0 assembles it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>

#include "analyzer/graph_summary.hpp"
#include "analyzer/longest_waits_gathering.hpp"
#include "analyzer/report_assembly.hpp"
#include "analyses/graph/what_if.hpp"
#include "analyzer/summary.hpp"
#include "tests/analyses/analysis_harness.hpp"
#include "tests/analyses/backward/figure3.hpp"
#include "tests/support/summary_section.hpp"

using namespace hindsight;
using hindsight::testing::summary_section;
using namespace hindsight::testing;

namespace {

constexpr analyses::AnalysisOptions kAllAnalyses{.critical_path = true, .root_cause = true};

// Every rank's cube laid out as gather_cubes() delivers them to rank 0.
analyzer::GatheredCubes gathered(const AnalysisResults& results, int ranks) {
    analyzer::GatheredCubes cubes;
    cubes.offsets.push_back(0);
    for (int r = 0; r < ranks; ++r) {
        const auto values = results.cube(r).values();
        for (std::size_t i = 0; i < values.size(); ++i)
            if (values[i] != 0.0) {
                cubes.index.push_back(static_cast<std::uint32_t>(i));
                cubes.value.push_back(values[i]);
            }
        cubes.offsets.push_back(cubes.index.size());
    }
    return cubes;
}

std::string summary_of(const TraceBuilder& builder, double wall_seconds, const analyses::GraphOptions& graph = {}) {
    const AnalysisResults results(builder, kAllAnalyses, graph);
    const cube::Report report = analyzer::assemble_report(results.trace(0), gathered(results, builder.size()));
    analyzer::RunFacts facts;
    facts.trace_path = "run/traces.otf2";
    facts.report_path = "run/analysis.cubex";
    facts.ranks = builder.size();
    facts.wall_seconds = wall_seconds;
    // Every rank's longest waits as gather_longest_waits() delivers them.
    std::vector<double> sent;
    std::vector<int> counts;
    for (int r = 0; r < builder.size(); ++r) {
        const std::vector<double> mine = analyzer::encode_waits(results.findings(r).longest_waits, results.trace(r));
        sent.insert(sent.end(), mine.begin(), mine.end());
        counts.push_back(static_cast<int>(mine.size()));
    }
    facts.longest_waits = analyzer::decode_waits(sent, counts);
    facts.graph = results.findings(0).graph;
    facts.flushes = analyzer::buffer_flushes(report);  // as the analyzer finds them
    std::ostringstream out;
    analyzer::print_summary(out, report, facts, analyzer::summary_sections());
    return out.str();
}


constexpr const char* kCollectiveImbalance = "Collective imbalance (waiting in collective calls against their execution)";

constexpr const char* kLateSenderAdvice =
    "    advice: the sender is late: balance the work before the send, or receive without blocking "
    "(MPI_Irecv) and wait for the message only when it is needed\n";

// One tick is 1 ms. All ranks leave MPI_Init at 10 and compute in solve:
// rank 0 until 110, rank 1 until 160, rank 2 until 310, then enter the
// barrier, which all leave at 320; MPI_Finalize 320-330.
TraceBuilder barrier_behind_rank_2() {
    TraceBuilder t(3);
    t.set_ticks_per_second(1000);
    for (const Ticks solved : {110, 160, 310}) {
        const int rank = solved == 110 ? 0 : solved == 160 ? 1 : 2;
        t.rank(rank).enter(0, "main").init(0, 10).region(10, solved, "solve").barrier(solved, 320)
            .finalize(320, 330).leave(330);
    }
    return t;
}

}  // namespace

// One tick is 1 µs. Rank 1 receives from 10; rank 0 sends only at 300010,
// after delayed_work (10..240010) and io (240010..300010). Rank 1 waits
// 300010 - 10 = 300000 µs, from 10 µs on. The two ranks last met in
// MPI_Init (0..10 on both, no completion time): in the interval rank 0 ran
// delayed_work for 240000 µs and io for 60000 µs, rank 1 nothing, so the
// waiting goes to them in that proportion, all of it direct (rank 0 waited
// nowhere). Rank 0 enters MPI_Finalize at 300030, rank 1 at 300040: rank 0
// waits 10 µs there, far below 5 % of the total time 2 * 300100 µs, and the
// summary leaves it out.
TEST_CASE("summary: a Late Sender with the delays that caused it", "[summary]") {
    TraceBuilder t(2);
    t.set_ticks_per_second(1'000'000);
    t.rank(0).enter(0, "main").init(0, 10)
        .region(10, 240'010, "delayed_work").region(240'010, 300'010, "io")
        .send(300'010, 300'020, 1, 0, 8).finalize(300'030, 300'100).leave(300'100);
    t.rank(1).enter(0, "main").init(0, 10).recv(10, 300'030, 0, 0, 8).finalize(300'040, 300'100).leave(300'100);
    const std::string summary = summary_of(t, 300'100e-6);

    CHECK(summary.find("  total time: 600 ms (summed over ranks), wall clock 300 ms\n"
                       "  percentages: shares of the total time\n") != std::string::npos);
    // Without --graph the summary names what the activity graph would add.
    CHECK(summary.find("What if: --graph predicts") != std::string::npos);
    CHECK(summary.find("Longest path of the activity graph") == std::string::npos);
    // 300000 / 600200 = 49.98 %.
    CHECK(summary_section(summary, "Largest wait states") ==
          std::string("Largest wait states:\n"
                      "  Late Sender: 300 ms (50.0 %)\n"
                      "    mostly at main > MPI_Recv (300 ms), most on rank 1 (300 ms)\n"
                      "    caused mostly by (delay costs over the run):\n"
                      "      main > delayed_work on rank 0: 240 ms (direct)\n"
                      "      main > io on rank 0: 60.0 ms (direct)\n"
                      "    longest single waits (starting at seconds since the trace's start):\n"
                      "      rank 1 at 0.000010 s: 300 ms in main > MPI_Recv\n") +
              kLateSenderAdvice);
}

// Figure 3 of the delay paper (figure3.hpp), at 1250 ticks per second: one
// unit of the figure is 0.8 s. B (rank 1) waits 3 units, C (rank 2) 2: 5
// units = 4 s of the total time 3 * 9 units = 21.6 s (18.5 %), all at
// main > MPI_Recv, 2.4 s of it on rank 1. The paper's costs: A's g
// 2.25 units direct + 1.125 indirect = 1.8 s + 0.9 s, A's f 0.75 + 0.375
// units = 600 ms + 300 ms, B's receive 0.5 units = 400 ms direct.
// The single waits: B from 3 units (2.4 s) for 2.4 s, C from 5 units (4 s)
// for 1.6 s.
// MPI_Finalize: A enters at 7, B at 7.5, C at 8: A waits 1 unit, B 0.5,
// together 1.2 s, 5.6 % of the total time, above the 5 % below which the
// summary leaves Wait at Finalize out: A's wait begins at 5.6 s, B's at 6 s.
TEST_CASE("summary: waiting passed on through another wait is indirect", "[summary]") {
    TraceBuilder t = figure3_trace();
    t.set_ticks_per_second(1250);
    const std::string summary = summary_of(t, 9 * 0.8);

    CHECK(summary_section(summary, "Largest wait states") ==
          std::string("Largest wait states:\n"
                      "  Late Sender: 4.00 s (18.5 %)\n"
                      "    mostly at main > MPI_Recv (4.00 s), most on rank 1 (2.40 s)\n"
                      "    caused mostly by (delay costs over the run):\n"
                      "      main > g on rank 0: 2.70 s (1.80 s direct, 900 ms indirect)\n"
                      "      main > f on rank 0: 900 ms (600 ms direct, 300 ms indirect)\n"
                      "      main > MPI_Recv on rank 1: 400 ms (direct)\n"
                      "    longest single waits (starting at seconds since the trace's start):\n"
                      "      rank 1 at 2.400000 s: 2.40 s in main > MPI_Recv\n"
                      "      rank 2 at 4.000000 s: 1.60 s in main > MPI_Recv\n") +
              kLateSenderAdvice +
              "  Wait at Finalize: 1.20 s (5.6 %)\n"
              "    mostly at main > MPI_Finalize (1.20 s), most on rank 0 (800 ms)\n"
              "    longest single waits (starting at seconds since the trace's start):\n"
              "      rank 0 at 5.600000 s: 800 ms in main > MPI_Finalize\n"
              "      rank 1 at 6.000000 s: 400 ms in main > MPI_Finalize\n"
              "    advice: ranks finished their work at different times: balance the work of the whole run\n");
}

// The barrier behind rank 2 (barrier_behind_rank_2()). Ranks 0 and 1 wait for rank 2: 200 ms
// from 110 ms and 150 ms from 160 ms, 350 ms of the total time 3 * 330 ms
// (35.4 %). Rank 2's solve exceeds rank 0's by 200 ms and rank 1's by
// 150 ms: it is charged both waits, directly.
TEST_CASE("summary: a wait at a barrier and the late rank's work", "[summary]") {
    const TraceBuilder t = barrier_behind_rank_2();
    const std::string summary = summary_of(t, 0.33);

    CHECK(summary_section(summary, "Largest wait states") ==
          "Largest wait states:\n"
          "  Wait at Barrier: 350 ms (35.4 %)\n"
          "    mostly at main > MPI_Barrier (350 ms), most on rank 0 (200 ms)\n"
          "    caused mostly by (delay costs over the run):\n"
          "      main > solve on rank 2: 350 ms (direct)\n"
          "    longest single waits (starting at seconds since the trace's start):\n"
          "      rank 0 at 0.110000 s: 200 ms in main > MPI_Barrier\n"
          "      rank 1 at 0.160000 s: 150 ms in main > MPI_Barrier\n"
          "    advice: load imbalance before the barrier: balance the work that precedes it, or drop the barrier if "
          "no data depends on it\n");
    // Every rank ran every call path (solve above all), so no imbalance is
    // between partitions: the imbalance impact (intra- plus inter-partition)
    // is all intra-partition, the two metrics hold the same values and
    // share one line instead of two identical ones.
    const std::string indicators = summary_section(summary, "Imbalance indicators");
    CHECK(indicators.rfind("Imbalance indicators:\n  Imbalance impact = Intra-partition imbalance: ", 0) == 0);
    CHECK(std::count(indicators.begin(), indicators.end(), '\n') == 3);  // the title, the line, its "mostly at"
}

// The barrier behind rank 2 (barrier_behind_rank_2()): Init 0-10, then solve
// until 110, 160 and 310 ms, the barrier until 320, Finalize 320-330.
// Collective calls: Init and Finalize have no waiting (execution 10 each);
// the barrier's last begin is 310 and its first end 320: execution 10 on
// every rank, wait before 200, 150 and 0. Program: waiting 350 over the
// execution of all calls (9 x 10) plus the computation (solve: 100 + 150
// + 300) = 350 / 640 = 0.55; the barrier 350 / 30 = 11.67; rank 0 200 /
// (30 + 100) = 1.54, the most.
// Longest path: all ranks enter MPI_Finalize at 320, rank 0 holds the end:
// its barrier after the wait (10), rank 2's solve (300), Init (10): 320 ms.
// With rank 2's solve at half (150) ranks 1 and 2 begin the barrier at 160
// (rank 1, the lower, holds the path): 160 + 10 = 170 ms, -46.9 %.
// Balancing solve gives every rank (100 + 150 + 300) / 3 = 183.3: 203 ms.
TEST_CASE("summary: collective imbalance and the activity graph's predictions", "[summary][activity-graph]") {
    const TraceBuilder t = barrier_behind_rank_2();
    analyses::GraphOptions graph;
    graph.enabled = true;
    graph.what_ifs.push_back(analyses::parse_what_if("callpath=main/solve,rank=2,scale=0.5"));
    graph.suggestions = 3;
    const std::string summary = summary_of(t, 0.33, graph);

    CHECK(summary_section(summary, kCollectiveImbalance) ==
          std::string(kCollectiveImbalance) + ":\n"
          "  program: waiting 0.55 times the execution and computation of all ranks\n"
          "  main > MPI_Barrier: waiting 350 ms, 11.67 times its execution (30.0 ms)\n"
          "  most imbalanced rank: 0, waiting 1.54 times its execution and computation\n");
    CHECK(summary.find("What if: --graph") == std::string::npos);
    const auto graph_block = summary.substr(summary.find("Longest path of the activity graph"));
    CHECK(graph_block ==
          "Longest path of the activity graph: 320 ms\n"
          "      on the path: main > solve 300 ms, main > MPI_Init 10.0 ms, main > MPI_Barrier 10.0 ms\n"
          "  What if (predicted run time):\n"
          "    callpath=main/solve,rank=2,scale=0.5: 170 ms (-46.9 %)\n"
          "      on the path: main > solve 150 ms, main > MPI_Init 10.0 ms, main > MPI_Barrier 10.0 ms\n"
          "  Most promising changes (predicted run time):\n"
          "    balance main/solve: 203 ms (-36.5 %)\n"
          "      on the path: main > solve 183 ms, main > MPI_Init 10.0 ms, main > MPI_Barrier 10.0 ms\n"
          "Warnings: none\n");

    // The same findings as the report keeps them, the call paths by the
    // report's cnodes.
    const AnalysisResults results(t, kAllAnalyses, graph);
    const cube::Report report = analyzer::assemble_report(results.trace(0), gathered(results, t.size()));
    const auto cnode = [&](const char* region) {
        return std::to_string(report.find_cnode({"main", region}));
    };
    const std::string on_path = "[" + cnode("MPI_Init") + ",0.01],[" + cnode("MPI_Barrier") + ",0.01]]}";
    CHECK(analyzer::graph_findings_json(results.findings(0).graph) ==
          "{\"schema\":\"hindsight-activity-graph\",\"version\":1,"
          "\"recorded\":{\"label\":\"as recorded\",\"seconds\":0.32,\"path\":[[" + cnode("solve") + ",0.3]," + on_path +
          ",\"what_ifs\":[{\"label\":\"callpath=main/solve,rank=2,scale=0.5\",\"seconds\":0.17,\"path\":[[" +
          cnode("solve") + ",0.15]," + on_path + "]"
          ",\"suggestions\":[{\"label\":\"balance main/solve\",\"seconds\":0.203333333333,\"path\":[[" +
          cnode("solve") + ",0.183333333333]," + on_path + "]}");
}

// One tick is 1 ms. Both ranks leave MPI_Init at 10; rank 0 computes in
// solve until 110, rank 1 until 410; both leave MPI_Finalize at 411. The
// finalize's execution is 410..411 on each rank, 2 ms in all, against
// rank 0's 300 ms of waiting before it: under 1 % of the waiting, so no
// ratio (it would be 150). The program: 300 / (MPI_Init 2 x 10 + the
// finalize's 2 + solve 100 + 400) = 0.57; rank 0: 300 / (10 + 1 + 100) =
// 2.70, rank 1 waited nowhere.
TEST_CASE("summary: a collective whose execution is negligible gets no ratio", "[summary]") {
    TraceBuilder t(2);
    t.set_ticks_per_second(1000);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 110, "solve").finalize(110, 411).leave(411);
    t.rank(1).enter(0, "main").init(0, 10).region(10, 410, "solve").finalize(410, 411).leave(411);
    CHECK(summary_section(summary_of(t, 0.411), kCollectiveImbalance) ==
          std::string(kCollectiveImbalance) + ":\n"
          "  program: waiting 0.57 times the execution and computation of all ranks\n"
          "  main > MPI_Finalize: waiting 300 ms, its execution negligible (2.00 ms, under 1 % of the waiting)\n"
          "  most imbalanced rank: 0, waiting 2.70 times its execution and computation\n");
}

// One tick is 1 ms. Rank 0 flushes its trace buffer at 10..30 and 50..55,
// rank 2 at 10..12; rank 1 never: 3 flushes of 20 + 5 + 2 ms. (Rank 1's
// waiting at the barrier is rank 0's flushes: what the warning says.)
TEST_CASE("summary: the trace buffer's flushes are warned about", "[summary]") {
    TraceBuilder t(3);
    t.set_ticks_per_second(1000);
    t.rank(0).enter(0, "main").init(0, 10).region(10, 30, kBufferFlushRegion).region(30, 50, "solve")
        .region(50, 55, kBufferFlushRegion).barrier(55, 60).finalize(60, 70).leave(70);
    t.rank(1).enter(0, "main").init(0, 10).region(10, 50, "solve").barrier(50, 60).finalize(60, 70).leave(70);
    t.rank(2).enter(0, "main").init(0, 10).region(10, 12, kBufferFlushRegion).region(12, 50, "solve")
        .barrier(50, 60).finalize(60, 70).leave(70);
    const std::string summary = summary_of(t, 0.07);
    CHECK(summary.substr(summary.find("\nWarnings: ") + 1) ==
          "Warnings: 3 trace buffer flushes (2 on rank 0, 1 on rank 2, 27.0 ms): the rank stood still while its "
          "buffer was written, so waiting and times after a flush are distorted; a larger trace buffer avoids "
          "them\n");
}

TEST_CASE("summary: damage found in the trace leads the warnings line", "[summary][damage]") {
    analyzer::RunFacts facts;
    facts.damage = {"rank 1: 1 MPI_IRECV completions of requests never posted (the first: request 9); analyzed so",
                    "rank 3: 2 MPI_COLLECTIVE_BEGIN records without their MPI_COLLECTIVE_END (the first: x); so"};
    facts.timestamp_fixups = 4;
    CHECK(analyzer::warnings_line(facts) ==
          "rank 1: 1 MPI_IRECV completions of requests never posted (the first: request 9); analyzed so; "
          "rank 3: 2 MPI_COLLECTIVE_BEGIN records without their MPI_COLLECTIVE_END (the first: x); so; "
          "4 timestamps raised to keep event streams in order");
}
