// End to end: traces in which part does not pair up, analyzed by
// hindsight-analyze under mpiexec. The analysis must go on without what
// does not pair, say what it left out (the summary's warnings line and the
// report's "Hindsight warnings" attribute, the same text), analyze the rest
// exactly as if the left-out events had never been recorded, and exit 0,
// or 3 with --strict. The values are derived by hand from the timestamps
// (1 tick = 1 ns); every report also satisfies the reference invariants.
//
// Environment: HINDSIGHT_ANALYZE (the analyzer), HINDSIGHT_MPIEXEC (mpiexec).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "common/cube/query.hpp"
#include "common/cube/reader.hpp"
#include "tests/reference/invariants.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/builder_ticks.hpp"
#include "tests/support/scorep_intercommunicator.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::testing;
using cube::value_at;

namespace {

struct Analysis {
    int status = -1;
    std::string warnings;  // the summary's line after "Warnings: "
    std::optional<cube::Report> report;

    std::string attribute(const std::string& key) const {
        for (const auto& [k, v] : report->attributes())
            if (k == key) return v;
        return "";
    }
};

// Writes the scenario, analyzes it on as many ranks with the extra
// options, and reads the summary's warnings and the report (if written).
Analysis analyse(const TraceBuilder& t, const std::string& options = "") {
    const ScratchDir dir;
    t.write(dir.path() / "trace");
    const auto report = dir.path() / "report.cubex", summary = dir.path() / "summary.txt";
    const std::string command = required_env("HINDSIGHT_MPIEXEC") + " -n " + std::to_string(t.size()) + " " +
                                required_env("HINDSIGHT_ANALYZE") + " --timeout 60 --no-page " + options + " -o " +
                                report.string() + " " + (dir.path() / "trace" / "traces.otf2").string() + " > " +
                                summary.string();
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    Analysis a;
    a.status = WEXITSTATUS(status);
    std::ifstream in(summary);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("Warnings: ", 0) == 0) a.warnings = line.substr(10);
    if (std::filesystem::exists(report)) {
        a.report = cube::read_cubex(report);
        std::ostringstream violations;
        for (const auto& v : reference::check_invariants(*a.report)) violations << v.invariant << ": " << v.detail << "\n";
        INFO(violations.str());
        CHECK(violations.str().empty());
    }
    return a;
}

// The report exists, and its attribute holds the summary's warnings.
void reported(const Analysis& a, const std::string& warnings) {
    REQUIRE(a.report);
    CHECK(a.warnings == warnings);
    CHECK(a.attribute("Hindsight warnings") == warnings);
}

// Three ranks: rank 1 sends rank 2 a message at 50 that rank 2 waits for
// from 30 (a Late Sender of 20 ns), after receiving one of rank 0's two
// messages on tag 7; with `unmatched`, rank 0's second message (at 14) has
// no receive.
TraceBuilder late_sender_elsewhere(bool unmatched) {
    TraceBuilder t(3);
    auto& r0 = t.rank(0).enter(0, "main").init(1, 5).send(10, 12, 1, 7, 64);
    if (unmatched) r0.send(14, 16, 1, 7, 64);
    r0.finalize(90, 95).leave(100);
    t.rank(1).enter(0, "main").init(1, 5).recv(20, 25, 0, 7, 64).send(50, 60, 2, 9, 1024).finalize(90, 95).leave(100);
    t.rank(2).enter(0, "main").init(1, 5).recv(30, 70, 1, 9, 1024).finalize(90, 95).leave(100);
    return t;
}

// Two ranks: rank 1 waits from 20 for rank 0's message sent at 50 (a Late
// Sender of 30 ns); then rank 0 sends `sent` more (tag 7 at 65, or tag 8)
// and rank 1 receives `received` more (tag 7 at 72..80, or tag 9).
TraceBuilder late_sender_then(std::optional<std::uint32_t> sent, std::optional<std::uint32_t> received,
                              std::uint64_t received_bytes = 64) {
    TraceBuilder t(2);
    auto& r0 = t.rank(0).enter(0, "main").init(1, 5).send(50, 60, 1, 7, 64);
    if (sent) r0.send(65, 66, 1, *sent, 64);
    r0.finalize(90, 95).leave(100);
    auto& r1 = t.rank(1).enter(0, "main").init(1, 5).recv(20, 70, 0, 7, received_bytes);
    if (received) r1.recv(72, 80, 0, *received, 64);
    r1.finalize(90, 95).leave(100);
    return t;
}

}  // namespace

TEST_CASE("pairing: a send without a receive is left out, the Late Sender elsewhere stays exact", "[mpi][pairing]") {
    const Analysis a = analyse(late_sender_elsewhere(true));
    CHECK(a.status == 0);
    reported(a, "1 message from rank 0 to rank 1 has no matching receive (at main/MPI_Send); it is left out of the "
                "analysis");
    const cube::Report& r = *a.report;
    CHECK(value_at(r, "mpi_latesender", {"main", "MPI_Recv"}, 2) == Approx(ns(50 - 30)));
    CHECK(value_at(r, "mpi_latesender", {"main", "MPI_Recv"}, 1) == 0.0);
    // The left-out send's call stays, with its time, as MPI time: two
    // MPI_Send calls of 2 ns, one message of 64 bytes.
    CHECK(value_at(r, "visits", {"main", "MPI_Send"}, 0) == 2.0);
    CHECK(value_at(r, "time", {"main", "MPI_Send"}, 0) == Approx(ns(2 + 2)));
    CHECK(value_at(r, "mpi_point2point", {"main", "MPI_Send"}, 0) == Approx(ns(2 + 2)));
    CHECK(value_at(r, "bytes_sent", {"main", "MPI_Send"}, 0) == 64.0);
    CHECK(cube::sum_over_call_paths(r, "time", 0) == Approx(ns(100)));

    // The same trace without that send: the same wait states.
    const Analysis matched = analyse(late_sender_elsewhere(false));
    CHECK(matched.status == 0);
    CHECK(matched.warnings == "none");
    CHECK(value_at(*matched.report, "mpi_latesender", {"main", "MPI_Recv"}, 2) ==
          value_at(r, "mpi_latesender", {"main", "MPI_Recv"}, 2));
    CHECK(cube::total(*matched.report, "mpi_latesender") == cube::total(r, "mpi_latesender"));
    CHECK(cube::total(*matched.report, "mpi_latereceiver") == cube::total(r, "mpi_latereceiver"));
}

TEST_CASE("pairing: --strict ends with status 3 once the report is written", "[mpi][pairing]") {
    const Analysis strict = analyse(late_sender_elsewhere(true), "--strict");
    CHECK(strict.status == 3);
    reported(strict, "1 message from rank 0 to rank 1 has no matching receive (at main/MPI_Send); it is left out of "
                     "the analysis");
    CHECK(value_at(*strict.report, "mpi_latesender", {"main", "MPI_Recv"}, 2) == Approx(ns(50 - 30)));
    // Nothing left out: 0.
    CHECK(analyse(late_sender_elsewhere(false), "--strict").status == 0);
    // Sizes that differ are analyzed as paired: nothing was left out.
    CHECK(analyse(late_sender_then(std::nullopt, std::nullopt, 32), "--strict").status == 0);
}

TEST_CASE("pairing: a receive without a send is left out", "[mpi][pairing]") {
    const Analysis a = analyse(late_sender_then(std::nullopt, 7));
    CHECK(a.status == 0);
    reported(a, "1 receive of rank 1 from rank 0 has no matching send (at main/MPI_Recv); it is left out of the "
                "analysis");
    // The first receive pairs with the send: Late Sender 50 - 20; the
    // second (72..80) has none, and its time stays MPI time.
    CHECK(value_at(*a.report, "mpi_latesender", {"main", "MPI_Recv"}, 1) == Approx(ns(50 - 20)));
    CHECK(value_at(*a.report, "time", {"main", "MPI_Recv"}, 1) == Approx(ns(50 + 8)));
    CHECK(value_at(*a.report, "visits", {"main", "MPI_Recv"}, 1) == 2.0);
}

TEST_CASE("pairing: a tag that differs leaves out the send and the receive", "[mpi][pairing]") {
    const Analysis a = analyse(late_sender_then(8, 9));
    CHECK(a.status == 0);
    reported(a, "1 message from rank 0 to rank 1 has no matching receive (at main/MPI_Send); it is left out of the "
                "analysis; 1 receive of rank 1 from rank 0 has no matching send (at main/MPI_Recv); it is left out "
                "of the analysis");
    CHECK(value_at(*a.report, "mpi_latesender", {"main", "MPI_Recv"}, 1) == Approx(ns(50 - 20)));
}

TEST_CASE("pairing: sizes that differ are analyzed, with a warning", "[mpi][pairing]") {
    const Analysis a = analyse(late_sender_then(std::nullopt, std::nullopt, 32));
    CHECK(a.status == 0);
    reported(a, "1 message from rank 0 to rank 1 differs in size between sender and receiver (at main/MPI_Recv); it "
                "is analyzed as paired");
    CHECK(value_at(*a.report, "mpi_latesender", {"main", "MPI_Recv"}, 1) == Approx(ns(50 - 20)));
}

TEST_CASE("pairing: a communicator whose members disagree on its collectives loses them, the others stay",
          "[mpi][pairing]") {
    // Ranks 0 and 1 share "pair", where rank 1 records a second barrier.
    // World barrier: entered at 50, 60, 70, left at 80 (Wait at Barrier 20
    // on rank 0, 10 on rank 1). Were pair's first barrier analyzed, rank 0
    // would wait there 10 more (entered 10, rank 1 at 20).
    TraceBuilder t(3);
    const Comm pair = t.communicator({0, 1}, t.world(), "pair");
    t.rank(0).enter(0, "main").init(1, 5).barrier(10, 40, pair).barrier(50, 80).finalize(90, 95).leave(100);
    t.rank(1).enter(0, "main").init(1, 5).barrier(20, 40, pair).barrier(42, 44, pair).barrier(60, 80)
        .finalize(90, 95).leave(100);
    t.rank(2).enter(0, "main").init(1, 5).barrier(70, 80).finalize(90, 95).leave(100);
    const Analysis a = analyse(t);
    CHECK(a.status == 0);
    reported(a, "3 collective operations on pair are recorded differently by its members (rank 1 records 2, rank 0 "
                "only 1; at main/MPI_Barrier); they are left out of the analysis");
    const cube::Report& r = *a.report;
    CHECK(value_at(r, "mpi_barrier_wait", {"main", "MPI_Barrier"}, 0) == Approx(ns(70 - 50)));
    CHECK(value_at(r, "mpi_barrier_wait", {"main", "MPI_Barrier"}, 1) == Approx(ns(70 - 60)));
    CHECK(value_at(r, "mpi_barrier_wait", {"main", "MPI_Barrier"}, 2) == 0.0);
    // The left-out barriers' time stays MPI time: 30 + 30 ns on rank 0.
    CHECK(value_at(r, "time", {"main", "MPI_Barrier"}, 0) == Approx(ns(30 + 30)));
    CHECK(value_at(r, "visits", {"main", "MPI_Barrier"}, 1) == 3.0);
}

TEST_CASE("pairing: MPI_COMM_WORLD's collectives, MPI_Init and MPI_Finalize with them, can be left out",
          "[mpi][pairing]") {
    // Rank 0 records a barrier rank 1 lacks. Rank 1 would wait 10 ns in
    // MPI_Finalize (entered at 80, rank 0 at 90) were it analyzed; the Late
    // Sender (50 - 20) stays.
    TraceBuilder t(2);
    t.rank(0).enter(0, "main").init(1, 5).barrier(10, 12).send(50, 60, 1, 7, 64).finalize(90, 95).leave(100);
    t.rank(1).enter(0, "main").init(1, 5).recv(20, 70, 0, 7, 64).finalize(80, 95).leave(100);
    const Analysis a = analyse(t);
    CHECK(a.status == 0);
    REQUIRE(a.report);
    CHECK(a.warnings.rfind("5 collective operations on MPI_COMM_WORLD are recorded differently by its members "
                           "(rank 0 records 3, rank 1 only 2; at main/MPI_",
                           0) == 0);
    CHECK(a.attribute("Hindsight warnings") == a.warnings);
    CHECK(value_at(*a.report, "mpi_latesender", {"main", "MPI_Recv"}, 1) == Approx(ns(50 - 20)));
    CHECK(value_at(*a.report, "mpi_finalize_wait", {"main", "MPI_Finalize"}, 1) == 0.0);
    CHECK(value_at(*a.report, "time", {"main", "MPI_Finalize"}, 1) == Approx(ns(95 - 80)));
}

TEST_CASE("pairing: an intercommunicator as Score-P writes it pairs whole and is analyzed", "[mpi][pairing]") {
    // scorep_intercommunicator.hpp: Late Senders of 30 ns on rank 3 and
    // 20 ns on rank 1 across it; its broadcast with Score-P's roots stays in.
    const TraceBuilder t = scorep_intercommunicator_trace();
    const Analysis a = analyse(t);
    CHECK(a.status == 0);
    CHECK(a.warnings == "none");
    REQUIRE(a.report);
    CHECK(value_at(*a.report, "mpi_latesender", {"main", "MPI_Recv"}, 3) == Approx(ns(30)));
    CHECK(value_at(*a.report, "mpi_latesender", {"main", "MPI_Recv"}, 1) == Approx(ns(20)));
}
