// The text mode's tables and the difference of two reports, on reports
// built by hand.
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "report/diff.hpp"
#include "report/diff_findings.hpp"
#include "report/table.hpp"
#include "report/text_mode.hpp"
#include "tests/report/report_fixture.hpp"

using namespace hindsight;
using namespace hindsight::report;

namespace {

// main -> {solve -> MPI_Recv, output}; ranks 0 and 1; metric "time" with
// sub-metric "wait" (own shares). time: main 1+1, solve 4+2, output 0+3;
// wait: MPI_Recv 0+5.
cube::Report program(double extra_wait = 0, int ranks = 2) {
    using namespace hindsight::cube;
    Report r;
    const MetricIndex time = testing::add_seconds_metric(r, "time", "Time", kNone);
    const MetricIndex wait = testing::add_seconds_metric(r, "wait", "Waiting", time);
    const CnodeIndex main_cnode = r.add_cnode(r.add_region(testing::region_named("main")), kNone);
    const CnodeIndex solve = r.add_cnode(r.add_region(testing::region_named("solve")), main_cnode);
    const CnodeIndex recv = r.add_cnode(r.add_region(testing::region_named("MPI_Recv")), solve);
    const CnodeIndex output = r.add_cnode(r.add_region(testing::region_named("output")), main_cnode);
    testing::add_ranks(r, ranks);
    r.set_value(time, main_cnode, 0, 1);
    r.set_value(time, main_cnode, 1, 1);
    r.set_value(time, solve, 0, 4);
    r.set_value(time, solve, 1, 2);
    r.set_value(time, output, 1, 3);
    r.set_value(wait, recv, 1, 5 + extra_wait);
    return r;
}

std::string csv(const Table& t) {
    std::ostringstream out;
    print_table(out, t, Format::Csv);
    return out.str();
}

}  // namespace

TEST_CASE("call tree: inclusive and exclusive per call path, zero subtrees left out", "[report]") {
    const cube::Report r = program();
    // Stored time includes wait: MPI_Recv 5, solve 6, output 3, main 2;
    // inclusive main = 16.
    CHECK(csv(call_tree_table(r, r.find_metric("time"), 0)) ==
          "call path,inclusive,exclusive\n"
          "main,16,2\n"
          "main/solve,11,6\n"
          "main/solve/MPI_Recv,5,5\n"
          "main/output,3,3\n");
    CHECK(csv(call_tree_table(r, r.find_metric("wait"), 0)) ==
          "call path,inclusive,exclusive\nmain,5,0\nmain/solve,5,0\nmain/solve/MPI_Recv,5,5\n");
    CHECK(csv(call_tree_table(r, r.find_metric("time"), 2)) ==
          "call path,inclusive,exclusive\nmain/solve,11,6\nmain/solve/MPI_Recv,5,5\n");
}

TEST_CASE("per rank: one call path's exclusive and inclusive values", "[report]") {
    const cube::Report r = program();
    const cube::CnodeIndex solve = find_call_path(r, "main/solve");
    REQUIRE(solve != cube::kNone);
    CHECK(find_call_path(r, "main/nothing") == cube::kNone);
    // Without the program's region, as --what-if accepts call paths.
    CHECK(find_call_path(r, "solve") == solve);
    const cube::CnodeIndex recv = find_call_path(r, "main/solve/MPI_Recv");
    REQUIRE(recv != cube::kNone);
    CHECK(find_call_path(r, "solve/MPI_Recv") == recv);
    CHECK(find_call_path(r, "MPI_Recv") == recv);
    CHECK(find_call_path(r, "other/solve") == cube::kNone);
    CHECK(find_call_path(r, "main/solve/MPI_Recv/deeper") == cube::kNone);
    CHECK(csv(rank_table(r, r.find_metric("time"), solve, 0)) == "rank,exclusive,inclusive\n0,4,4\n1,2,7\n");
    CHECK(csv(rank_table(r, r.find_metric("time"), solve, 1)) == "rank,exclusive,inclusive\n0,4,4\n");
}

// Two ranks of two threads (a hybrid run): main -> work; time on rank 0's
// master main 1, work 4; its worker work 3; rank 1's master main 2, work 1;
// its worker work 5. Per rank at main (exclusive, inclusive): rank 0 1 and
// 1 + 4 + 3 = 8, rank 1 2 and 2 + 1 + 5 = 8; per thread rank 0: master 1
// and 5, worker 0 and 3; rank 1: master 2 and 3, worker 0 and 5.
TEST_CASE("per rank: a hybrid report lists each rank's threads below it", "[report]") {
    using namespace hindsight::cube;
    Report r;
    const MetricIndex time = testing::add_seconds_metric(r, "time", "Time", kNone);
    const CnodeIndex main_cnode = r.add_cnode(r.add_region(testing::region_named("main")), kNone);
    const CnodeIndex work = r.add_cnode(r.add_region(testing::region_named("work")), main_cnode);
    const SystemNodeIndex machine = r.add_system_node({"machine", "machine", "", kNone});
    for (int rank = 0; rank < 2; ++rank) {
        const LocationGroupIndex g = r.add_location_group({"MPI Rank " + std::to_string(rank), rank, machine});
        r.add_location({"Master thread", 0, g});
        r.add_location({"OMP thread 1", 1, g});
    }
    r.set_value(time, main_cnode, 0, 1);
    r.set_value(time, work, 0, 4);
    r.set_value(time, work, 1, 3);
    r.set_value(time, main_cnode, 2, 2);
    r.set_value(time, work, 2, 1);
    r.set_value(time, work, 3, 5);
    CHECK(csv(rank_table(r, time, main_cnode, 0)) ==
          "location,rank,thread,exclusive,inclusive\n"
          "MPI Rank 0,0,(all),1,8\n"
          "Master thread,0,0,1,5\n"
          "OMP thread 1,0,1,0,3\n"
          "MPI Rank 1,1,(all),2,8\n"
          "Master thread,1,0,2,3\n"
          "OMP thread 1,1,1,0,5\n");
    // --top 1: the rank of largest exclusive value (rank 1), with its threads.
    CHECK(csv(rank_table(r, time, main_cnode, 1)) ==
          "location,rank,thread,exclusive,inclusive\n"
          "MPI Rank 1,1,(all),2,8\n"
          "Master thread,1,0,2,3\n"
          "OMP thread 1,1,1,0,5\n");
    // On a terminal the threads are indented below their rank.
    std::ostringstream text;
    print_table(text, rank_table(r, time, work, 0), Format::Text);
    CHECK(text.str() ==
          "location         rank  thread  exclusive  inclusive\n"
          "MPI Rank 0          0  (all)           7          7\n"
          "  Master thread     0       0          4          4\n"
          "  OMP thread 1      0       1          3          3\n"
          "MPI Rank 1          1  (all)           6          6\n"
          "  Master thread     1       0          1          1\n"
          "  OMP thread 1      1       1          5          5\n");
}

TEST_CASE("overview: metrics with their largest call paths", "[report]") {
    const cube::Report r = program();
    CHECK(csv(metric_overview(r, 1)) ==
          "metric,call path,value,unit\n"
          "time,(all),16,sec\n"
          "time,main/solve,6,sec\n"
          "wait,(all),5,sec\n"
          "wait,main/solve/MPI_Recv,5,sec\n");
    std::ostringstream text;
    print_table(text, metric_overview(r, 1), Format::Text);
    CHECK(text.str().find("\n  wait ") != std::string::npos);  // indented below time
}

TEST_CASE("tables print CSV quoting and JSON", "[report]") {
    Table t{{"name", "value"}, {{{std::string("a,\"b\""), 1.5}, 0}, {{std::string("x"), 2LL}, 0}}};
    CHECK(csv(t) == "name,value\n\"a,\"\"b\"\"\",1.5\nx,2\n");
    std::ostringstream json;
    print_table(json, t, Format::Json);
    CHECK(json.str() == "[\n {\"name\": \"a,\\\"b\\\"\", \"value\": 1.5},\n {\"name\": \"x\", \"value\": 2}\n]\n");
}

TEST_CASE("difference: after minus before, matched by names, the union of both", "[report]") {
    cube::Report before = program();
    cube::Report after = program(1.5);
    // A call path and a rank only the later run has.
    const cube::CnodeIndex io = after.add_cnode(after.add_region(testing::region_named("io")), 0);
    (void)io;
    const cube::Report d = difference(before, after);
    CHECK(d.value_kind() == cube::ValueKind::MetricInclusive);
    CHECK(csv(call_tree_table(d, d.find_metric("wait"), 0)) ==
          "call path,inclusive,exclusive\nmain,1.5,0\nmain/solve,1.5,0\nmain/solve/MPI_Recv,1.5,1.5\n");
    // time includes wait: the same 1.5 s more.
    CHECK(csv(call_tree_table(d, d.find_metric("time"), 0)) ==
          "call path,inclusive,exclusive\nmain,1.5,0\nmain/solve,1.5,0\nmain/solve/MPI_Recv,1.5,1.5\n");
    CHECK(find_call_path(d, "main/io") != cube::kNone);

    // What only the earlier run has stays, negative.
    cube::Report shorter = program(0, 3);
    shorter.set_value(0, 0, 2, 4.0);
    const cube::Report back = difference(shorter, program());
    CHECK(back.locations().size() == 3);
    CHECK(csv(rank_table(back, back.find_metric("time"), 0, 0)) ==
          "rank,exclusive,inclusive\n0,0,0\n1,0,0\n2,-4,-4\n");
}

TEST_CASE("difference overview: the largest increases and decreases, metrics of one report marked", "[report]") {
    const cube::Report before = program();
    cube::Report after = program();
    after.set_value(0, 1, 0, 1);    // time at main/solve on rank 0: 4 -> 1
    after.set_value(0, 3, 1, 3.5);  // time at main/output on rank 1: 3 -> 3.5
    const cube::MetricIndex io = testing::add_seconds_metric(after, "io", "I/O", cube::kNone);
    after.set_value(io, 0, 0, 2);
    const cube::Report d = difference(before, after);
    REQUIRE(metrics_missing_in(before, after) == std::vector<std::string>{"io"});
    REQUIRE(metrics_missing_in(after, before).empty());
    Overview how;
    how.top = 1;
    how.changes = true;
    how.notes = {{"io", "only in after.cubex"}};
    // Ranked by signed value, the top 1 of time would be output's +0.5
    // alone; the 3 s that solve lost come first. wait did not change.
    CHECK(csv(metric_overview(d, how)) ==
          "metric,call path,value,unit\n"
          "time,(all),-2.5,sec\n"
          "time,main/solve,-3,sec\n"
          "time,main/output,0.5,sec\n"
          "io,(all; only in after.cubex),2,sec\n"
          "io,main,2,sec\n");
    // Time moved from solve to output: the total is unchanged, the metric
    // is still listed.
    cube::Report moved = program();
    moved.set_value(0, 1, 0, 3);
    moved.set_value(0, 3, 1, 4);
    CHECK(csv(metric_overview(difference(before, moved), how)) ==
          "metric,call path,value,unit\n"
          "time,(all),0,sec\n"
          "time,main/solve,-1,sec\n"
          "time,main/output,1,sec\n");
}

// Time at main/solve on rank 0 goes from 4 to 1 s, at main/output on rank
// 1 from 3 to 3.5 s; a Late Sender below the time at main/solve/MPI_Recv on
// rank 1 from 2 to 3.5 s: Late Sender +1.5 s (worse), time -3 + 0.5 + 1.5
// = -1 s, most at main/solve on rank 0 (better); "wait" is no metric the
// findings look at.
TEST_CASE("difference findings: what got worse, what got better", "[report]") {
    const auto with_late_sender = [](cube::Report r, double seconds) {
        const cube::MetricIndex late = testing::add_seconds_metric(r, "mpi_latesender", "Late Sender", 0);
        r.set_value(late, 2, 1, seconds);
        return r;
    };
    const cube::Report before = with_late_sender(program(), 2);
    cube::Report after = with_late_sender(program(), 3.5);
    after.set_value(0, 1, 0, 1);
    after.set_value(0, 3, 1, 3.5);
    const cube::Report d = difference(before, after);
    const DiffFindings found = diff_findings(d);
    std::ostringstream out;
    print_diff_findings(out, d, found);
    CHECK(out.str() ==
          "What got worse (AFTER − BEFORE):\n"
          "  Late Sender: +1.50 s, most at main/solve/MPI_Recv on rank 1 (+1.50 s)\n"
          "What got better:\n"
          "  Time: -1.00 s, most at main/solve on rank 0 (-3.00 s)\n");
    // No change at all: nothing either way.
    std::ostringstream same;
    print_diff_findings(same, difference(before, before), diff_findings(difference(before, before)));
    CHECK(same.str() == "What got worse (AFTER − BEFORE):\n  none\nWhat got better:\n  none\n");
}

TEST_CASE("difference: sums of changes that cancel print as 0, not as rounding noise", "[report]") {
    cube::Report before = program();
    cube::Report after = program();
    before.set_value(0, 1, 0, 0.1);  // time at main/solve, rank 0
    before.set_value(0, 3, 1, 0.2);  // time at main/output, rank 1
    after.set_value(0, 1, 0, 0.3);
    after.set_value(0, 3, 1, 0.0);
    // (0.3 - 0.1) + (0.0 - 0.2) is -2.8e-17 in doubles: 0 s moved in all.
    const cube::Report d = difference(before, after);
    Overview how;
    how.top = 2;
    how.changes = true;
    // CSV keeps every digit of the changes themselves.
    CHECK(csv(metric_overview(d, how)) ==
          "metric,call path,value,unit\n"
          "time,(all),0,sec\n"
          "time,main/output,-0.20000000000000001,sec\n"
          "time,main/solve,0.19999999999999998,sec\n");
    CHECK(csv(call_tree_table(d, d.find_metric("time"), 0)) ==
          "call path,inclusive,exclusive\n"
          "main,0,0\n"
          "main/solve,0.19999999999999998,0.19999999999999998\n"
          "main/output,-0.20000000000000001,-0.20000000000000001\n");
}

TEST_CASE("text tables: control characters in names are escaped, one row a line", "[report]") {
    CHECK(printable("a\nb\rc\td") == "a\\nb\\rc\\td");
    CHECK(printable("\x1b[31mred\x7f") == "\\x1b[31mred\\x7f");
    CHECK(printable("csi \xc2\x9b and \xc3\xbc") == "csi \\u009b and \xc3\xbc");  // U+009B escaped, ü kept
    Table t{{"name", "value"}, {{{std::string("two\nlines"), 1.0}, 0}, {{std::string("esc\x1b"), 2.0}, 0}}};
    std::ostringstream text;
    print_table(text, t, Format::Text);
    CHECK(text.str() == "name        value\ntwo\\nlines      1\nesc\\x1b         2\n");
    // CSV keeps the name as it is, quoted (RFC 4180).
    CHECK(csv(t) == "name,value\n\"two\nlines\",1\nesc\x1b,2\n");
}

TEST_CASE("text tables: deep call paths are abbreviated, indentation bounded, --callpath found in one pass", "[report]") {
    // A chain main/f1/.../f39, 1 s at each call path on one rank.
    cube::Report r;
    const cube::MetricIndex time = testing::add_seconds_metric(r, "time", "Time", cube::kNone);
    testing::add_ranks(r, 1);
    cube::CnodeIndex c = r.add_cnode(r.add_region(testing::region_named("main")), cube::kNone);
    r.set_value(time, c, 0, 1);
    for (int depth = 1; depth < 40; ++depth) {
        c = r.add_cnode(r.add_region(testing::region_named("f" + std::to_string(depth))), c);
        r.set_value(time, c, 0, 1);
    }
    const Table tree = call_tree_table(r, time, 0, PathNames::Abbreviated);
    REQUIRE(tree.rows.size() == 40);
    // Depth 10 (main/f1/.../f9) is whole; depth 11 and below keep 3 + 6 regions.
    CHECK(std::get<std::string>(tree.rows[9].cells[0]) == "main/f1/f2/f3/f4/f5/f6/f7/f8/f9");
    CHECK(std::get<std::string>(tree.rows[10].cells[0]) == "main/f1/f2/…(2 more)…/f5/f6/f7/f8/f9/f10");
    CHECK(std::get<std::string>(tree.rows[39].cells[0]) == "main/f1/f2/…(31 more)…/f34/f35/f36/f37/f38/f39");
    CHECK(std::get<std::string>(call_tree_table(r, time, 0).rows[39].cells[0]).size() > 150);  // whole for scripts
    std::ostringstream text;
    print_table(text, tree, Format::Text);
    const std::string out = text.str();
    const std::string last = out.substr(out.rfind('\n', out.size() - 2) + 1);
    CHECK(last.starts_with(std::string(2 * kMaxIndent, ' ') + "main/f1/f2/"));
    CHECK_FALSE(last.starts_with(std::string(2 * kMaxIndent + 1, ' ')));
    CHECK(find_call_path(r, call_path_text(r, c)) == c);
    // A region name holding '/' is still found by its whole path.
    const cube::CnodeIndex slash = r.add_cnode(r.add_region(testing::region_named("a/b")), 0);
    CHECK(find_call_path(r, "main/a/b") == slash);
    CHECK(find_call_path(r, "main/a") == cube::kNone);
}
