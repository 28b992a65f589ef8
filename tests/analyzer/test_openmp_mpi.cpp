// End to end: hybrid MPI + OpenMP traces in Score-P's conventions, built
// with exact timestamps (1 tick = 1 ns) and analyzed by hindsight-analyze
// under mpiexec. Every value is derived by hand in the comments from the
// timestamps; the report has one location per thread, master first.
//
// Environment: HINDSIGHT_ANALYZE (the analyzer), HINDSIGHT_MPIEXEC (mpiexec).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/cube/reader.hpp"
#include "tests/support/report_cells.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/summary_section.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using hindsight::testing::summary_section;
using namespace hindsight::testing;

namespace {

constexpr double ns = 1e-9;

struct Analysis {
    std::string warnings;  // the summary's line after "Warnings: "
    std::string summary;   // all of it
    // The side files beside the report: the profile per communicator and
    // the communication structure (with the rank matrix).
    std::string communicators_csv, communication_json;
    cube::Report report;

    // The value of `metric` at call path `path` ("main/work") on thread
    // `thread` of rank `rank`, as the report stores it; 0 where the report
    // has no such call path.
    double at(const std::string& metric, const std::string& path, std::int64_t rank, std::int64_t thread) const {
        const cube::MetricIndex m = report.find_metric(metric);
        REQUIRE(m != cube::kNone);
        double sum = 0;
        for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
            if (report_cells::call_path(report, c) != path) continue;
            for (cube::LocationIndex l = 0; l < report.locations().size(); ++l)
                if (report.locations()[l].rank == thread &&
                    report.location_groups()[report.locations()[l].group].rank == rank)
                    sum += report.value(m, c, l);
        }
        return sum;
    }
    // The row of `operation` in the profile per communicator, after the
    // communicator's columns `comm` (",MPI_COMM_WORLD,2,none,0,"):
    // operations, calls, time, waiting, bytes sent and received (the times
    // as printed, to full precision); empty when there is none.
    std::vector<double> operation_row(const std::string& comm, const std::string& operation) const {
        std::vector<double> fields;
        const auto at = communicators_csv.find(comm + operation + ",");
        if (at == std::string::npos) return fields;
        std::istringstream line(communicators_csv.substr(at + comm.size() + operation.size() + 1));
        for (std::string field; fields.size() < 6 && std::getline(line, field, fields.size() < 5 ? ',' : '\n');)
            fields.push_back(std::stod(field));
        return fields;
    }
    // Summed over every call path and location.
    double total(const std::string& metric) const {
        const cube::MetricIndex m = report.find_metric(metric);
        REQUIRE(m != cube::kNone);
        double sum = 0;
        for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c)
            for (cube::LocationIndex l = 0; l < report.locations().size(); ++l) sum += report.value(m, c, l);
        return sum;
    }
};

Analysis analyse(const TraceBuilder& t) {
    const ScratchDir dir;
    t.write(dir.path() / "trace");
    const auto report = dir.path() / "report.cubex", summary = dir.path() / "summary.txt";
    const std::string command = required_env("HINDSIGHT_MPIEXEC") + " -n " + std::to_string(t.size()) + " " +
                                required_env("HINDSIGHT_ANALYZE") + " --timeout 60 --no-page -o " + report.string() +
                                " " + (dir.path() / "trace" / "traces.otf2").string() + " > " + summary.string();
    const int status = std::system(command.c_str());
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    Analysis a{"", "", "", "", cube::read_cubex(report)};
    const auto text_of = [](const std::filesystem::path& path) {
        std::ifstream file(path);
        std::stringstream text;
        text << file.rdbuf();
        return text.str();
    };
    a.communicators_csv = text_of(dir.path() / "report.communicators.csv");
    a.communication_json = text_of(dir.path() / "report.communication.json");
    std::ifstream in(summary);
    for (std::string line; std::getline(in, line);) {
        a.summary += line + '\n';
        if (line.rfind("Warnings: ", 0) == 0) a.warnings = line.substr(10);
    }
    return a;
}


// MPI_COMM_WORLD of 2 ranks in the profile per communicator.
const std::string kWorldColumns = ",MPI_COMM_WORLD,2,none,0,";

// A row of the profile per communicator (Analysis::operation_row) against
// the one expected: operations, calls, time (ns), waiting (ns), bytes sent
// and received.
void check_row(const std::vector<double>& row, const std::array<double, 6>& expected) {
    REQUIRE(row.size() == 6);
    CHECK(row[0] == expected[0]);
    CHECK(row[1] == expected[1]);
    CHECK(row[2] == Approx(expected[2] * ns));
    CHECK(row[3] == Approx(expected[3] * ns));
    CHECK(row[4] == expected[4]);
    CHECK(row[5] == expected[5]);
}

constexpr const char* kIdleAdvice =
    "    advice: parallelize the master's work there, or run fewer threads per rank and more ranks\n";
constexpr const char* kImbalanceAdvice =
    "    advice: balance the work among the threads of the region (e.g. schedule(dynamic) for uneven iterations)\n";

const std::string kRegion = "main/!$omp parallel @a.c:1";
const std::string kWork = kRegion + "/work";
const std::string kBarrier = kRegion + "/!$omp implicit barrier @a.c:9";

// One rank of two threads. The master runs main from 0 to 1000, forks at
// 100, works 100-200, waits in the implicit barrier 200-390, leaves the
// region at 400 and joins at 400, then works serially 400-900. The worker
// begins its part at 110, works 110-300, is in the barrier 300-390 and
// leaves the region at 395.
TraceBuilder one_region() {
    TraceBuilder t(1);
    t.set_threads(2);
    auto& master = t.rank(0);
    master.enter(0, "main").fork(100, 2).team_begin(100).enter(100, "!$omp parallel @a.c:1");
    master.region(100, 200, "work").region(200, 390, "!$omp implicit barrier @a.c:9");
    master.leave(400).team_end(400).join(400).region(400, 900, "serial").leave(1000);
    auto& worker = t.thread(0, 1);
    worker.team_begin(110).enter(110, "!$omp parallel @a.c:1");
    worker.region(110, 300, "work").region(300, 390, "!$omp implicit barrier @a.c:9");
    worker.leave(395).team_end(395);
    return t;
}

// Two ranks of two threads in one parallel region, forked at 200 after
// MPI_Init 0-100; end_the_region() joins it at 600 and finalizes 700-710.
// Between them the tests add what the threads do in the region.
TraceBuilder two_ranks_in_a_region(int ranks = 2) {
    TraceBuilder t(ranks);
    t.set_threads(2);
    for (int r = 0; r < ranks; ++r) {
        t.rank(r).enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, "!$omp parallel @a.c:1");
        t.thread(r, 1).team_begin(200).enter(200, "!$omp parallel @a.c:1");
    }
    return t;
}

void end_the_region(TraceBuilder& t) {
    for (int r = 0; r < t.size(); ++r) {
        t.rank(r).leave(600).team_end(600).join(600).finalize(700, 710).leave(710);
        t.thread(r, 1).leave(600).team_end(600);
    }
}

// Seed 001's Figure 13.
TraceBuilder figure13() {
    // Two ranks of two threads. Both: MPI_Init 0-100. Region 1 forked at
    // 1000: on rank 0 the master computes 1000-2000 and waits in the
    // implicit barrier until 3000, its worker computes 1000-3000; then rank
    // 0 sends 3000-3100. On rank 1 both threads compute 1000-2000 (join at
    // 2000), and the master receives 2000-3100. Region 2 forked at 3200 on
    // both: the master updates 3200-4200, the worker 3200-4190 and waits in
    // the barrier until 4200. MPI_Finalize: rank 0 4300-4310, rank 1
    // 4310-4320 (main ends with it).
    TraceBuilder t(2);
    t.set_threads(2);
    const std::string r1 = "!$omp parallel @f.c:10", b1 = "!$omp implicit barrier @f.c:19";
    const std::string r2 = "!$omp parallel @f.c:30", b2 = "!$omp implicit barrier @f.c:39";
    const Ticks join1[] = {3000, 2000};
    for (int r = 0; r < 2; ++r) {
        auto& master = t.rank(r);
        auto& worker = t.thread(r, 1);
        master.enter(0, "main").init(0, 100);
        master.fork(1000, 2).team_begin(1000).enter(1000, r1).region(1000, 2000, "compute");
        master.region(2000, join1[r], b1).leave(join1[r]).team_end(join1[r]).join(join1[r]);
        worker.team_begin(1000).enter(1000, r1).region(1000, join1[r], "compute");
        worker.region(join1[r], join1[r], b1).leave(join1[r]).team_end(join1[r]);
    }
    t.rank(0).send(3000, 3100, 1, 0, 8);
    t.rank(1).recv(2000, 3100, 0, 0, 8);
    for (int r = 0; r < 2; ++r) {
        auto& master = t.rank(r);
        auto& worker = t.thread(r, 1);
        master.fork(3200, 2).team_begin(3200).enter(3200, r2).region(3200, 4200, "update");
        master.region(4200, 4200, b2).leave(4200).team_end(4200).join(4200);
        worker.team_begin(3200).enter(3200, r2).region(3200, 4190, "update").region(4190, 4200, b2);
        worker.leave(4200).team_end(4200);
    }
    t.rank(0).finalize(4300, 4310).leave(4310);
    t.rank(1).finalize(4310, 4320).leave(4320);
    return t;
}

}  // namespace

TEST_CASE("OpenMP: one location per thread, a worker's time from fork to join", "[openmp]") {
    const Analysis a = analyse(one_region());
    CHECK(a.warnings == "none");
    REQUIRE(a.report.location_groups().size() == 1);
    REQUIRE(a.report.locations().size() == 2);
    CHECK(a.report.locations()[0].name == "Master thread");
    CHECK(a.report.locations()[0].rank == 0);
    CHECK(a.report.locations()[1].name == "OMP thread 1");
    CHECK(a.report.locations()[1].rank == 1);

    // The master as in an MPI trace: main 1000 - 300 (region) - 500
    // (serial) = 200, the region 300 - 100 - 190 = 10, work 100, the
    // barrier 190, serial 500.
    CHECK(a.at("time", "main", 0, 0) == Approx(200 * ns));
    CHECK(a.at("time", kRegion, 0, 0) == Approx(10 * ns));
    CHECK(a.at("time", kWork, 0, 0) == Approx(100 * ns));
    CHECK(a.at("time", kBarrier, 0, 0) == Approx(190 * ns));
    // The worker's region lasts from the fork (100) to the join (400): 300,
    // less work 190 and the barrier 90: 20 of its own. It never visits main.
    CHECK(a.at("time", kRegion, 0, 1) == Approx(20 * ns));
    CHECK(a.at("time", kWork, 0, 1) == Approx(190 * ns));
    CHECK(a.at("time", kBarrier, 0, 1) == Approx(90 * ns));
    CHECK(a.at("visits", kRegion, 0, 1) == 1);
    CHECK(a.at("visits", kWork, 0, 1) == 1);
    CHECK(a.at("visits", "main", 0, 1) == 0);
    CHECK(a.at("visits", "main/serial", 0, 1) == 0);
}

TEST_CASE("OpenMP: barrier wait, fork and management, idle threads and their costs", "[openmp]") {
    const Analysis a = analyse(one_region());
    // The worker enters the barrier last, at 300: the master waits from 200,
    // 100 ns; the worker not at all.
    CHECK(a.at("omp_ibarrier_wait", kBarrier, 0, 0) == Approx(100 * ns));
    CHECK(a.at("omp_ibarrier_wait", kBarrier, 0, 1) == 0);
    CHECK(a.total("omp_ebarrier_wait") == 0);
    // Fork: the worker enters at 110, 10 after the fork; management adds its
    // exit at 395, 5 before the join (omp_management includes omp_fork).
    // The master enters at the fork and leaves at the join: none.
    CHECK(a.at("omp_fork", kRegion, 0, 1) == Approx(10 * ns));
    CHECK(a.at("omp_management", kRegion, 0, 1) == Approx(15 * ns));
    CHECK(a.at("omp_management", kRegion, 0, 0) == 0);
    // The region's time on the worker stays 20 (fork and management are
    // parts of it), the barrier's on the master 190 (the wait a part).
    CHECK(a.at("time", kRegion, 0, 1) == Approx(20 * ns));
    CHECK(a.at("time", kBarrier, 0, 0) == Approx(190 * ns));
    // Idle threads: the worker idles while the master runs serially, main
    // 200 (0-100 and 900-1000) and serial 500; the time of the worker
    // includes it, as Scalasca's metric tree has it.
    CHECK(a.at("omp_idle_threads", "main", 0, 1) == Approx(200 * ns));
    CHECK(a.at("omp_idle_threads", "main/serial", 0, 1) == Approx(500 * ns));
    CHECK(a.at("omp_idle_threads", "main", 0, 0) == 0);
    CHECK(a.at("time", "main", 0, 1) == Approx(200 * ns));
    // Every thread is in the region from fork to join: no limited parallelism.
    CHECK(a.total("omp_limited_parallelism") == 0);
    // Idleness costs: the master's serial work times (2 - 1) workers, on
    // the master where it worked (no MPI waits to leave out).
    CHECK(a.at("delay_ompidle", "main", 0, 0) == Approx(200 * ns));
    CHECK(a.at("delay_ompidle", "main/serial", 0, 0) == Approx(500 * ns));
    CHECK(a.total("delay_ompidle") == Approx(700 * ns));
    // Barrier costs: since the fork (100) the worker spent 10 at the
    // region (its late start) and 190 in work before entering at 300, the
    // master 0 and 100 before entering at 200; the excesses 10 and 90 add
    // up to the master's 100 ns wait (scale 1), booked on the worker.
    CHECK(a.at("delay_ompbarrier", kRegion, 0, 1) == Approx(10 * ns));
    CHECK(a.at("delay_ompbarrier", kWork, 0, 1) == Approx(90 * ns));
    CHECK(a.total("delay_ompbarrier") == Approx(100 * ns));
}

TEST_CASE("OpenMP: a team smaller than the rank's threads, and a worker that skips a region", "[openmp]") {
    // One rank of three threads, main 0-1100, three regions (parallel at
    // a.c:10, 20, 30; their implicit barriers at a.c:19, 29, 39):
    //  - 1, forked at 100 for 3: the master works 100-200, thread 1
    //    100-300, thread 2 100-400; each then waits in the barrier until
    //    400, joined at 400;
    //  - 2, forked at 500 for 2 (a num_threads clause): the master and
    //    thread 2 (not thread 1, as a runtime may pick); the master works
    //    500-550, thread 2 500-750; joined at 750;
    //  - 3, forked at 800 for 3: the master works 800-900, thread 1 enters
    //    at 810 and works 810-950, thread 2 works 800-1000; joined at 1000.
    TraceBuilder t(1);
    t.set_threads(3);
    auto& master = t.rank(0);
    auto& first = t.thread(0, 1);
    auto& second = t.thread(0, 2);
    const auto region = [](int line) { return "!$omp parallel @a.c:" + std::to_string(line); };
    const auto barrier = [](int line) { return "!$omp implicit barrier @a.c:" + std::to_string(line + 9); };
    master.enter(0, "main");
    master.fork(100, 3).team_begin(100).enter(100, region(10)).region(100, 200, "work").region(200, 400, barrier(10));
    master.leave(400).team_end(400).join(400);
    first.team_begin(100).enter(100, region(10)).region(100, 300, "work").region(300, 400, barrier(10));
    first.leave(400).team_end(400);
    second.team_begin(100).enter(100, region(10)).region(100, 400, "work").region(400, 400, barrier(10));
    second.leave(400).team_end(400);
    master.fork(500, 2).team_begin(500).enter(500, region(20)).region(500, 550, "work").region(550, 750, barrier(20));
    master.leave(750).team_end(750).join(750);
    second.team_begin(500).enter(500, region(20)).region(500, 750, "work").region(750, 750, barrier(20));
    second.leave(750).team_end(750);
    master.fork(800, 3).team_begin(800).enter(800, region(30)).region(800, 900, "work").region(900, 1000, barrier(30));
    master.leave(1000).team_end(1000).join(1000).leave(1100);
    first.team_begin(810).enter(810, region(30)).region(810, 950, "work").region(950, 1000, barrier(30));
    first.leave(1000).team_end(1000);
    second.team_begin(800).enter(800, region(30)).region(800, 1000, "work").region(1000, 1000, barrier(30));
    second.leave(1000).team_end(1000);
    const Analysis a = analyse(t);

    CHECK(a.warnings == "none");
    const auto in = [&](int line, const std::string& what) { return "main/" + region(line) + "/" + what; };
    // Each barrier waits for its team's last thread: 400, 750, 1000.
    CHECK(a.at("omp_ibarrier_wait", in(10, barrier(10)), 0, 0) == Approx(200 * ns));
    CHECK(a.at("omp_ibarrier_wait", in(10, barrier(10)), 0, 1) == Approx(100 * ns));
    CHECK(a.at("omp_ibarrier_wait", in(20, barrier(20)), 0, 0) == Approx(200 * ns));
    CHECK(a.at("omp_ibarrier_wait", in(30, barrier(30)), 0, 0) == Approx(100 * ns));
    CHECK(a.at("omp_ibarrier_wait", in(30, barrier(30)), 0, 1) == Approx(50 * ns));
    CHECK(a.total("omp_ibarrier_wait") == Approx(650 * ns));
    // Thread 1's second team is region 3's: its region lasts from that fork
    // to that join, 200, less work 140 and the barrier 50; 10 of it the
    // late entry.
    CHECK(a.at("time", "main/" + region(30), 0, 1) == Approx(10 * ns));
    CHECK(a.at("omp_fork", "main/" + region(30), 0, 1) == Approx(10 * ns));
    // Thread 1 idles through region 2 (500-750) as limited parallelism.
    CHECK(a.at("omp_limited_parallelism", "main/" + region(20), 0, 1) == Approx(250 * ns));
    CHECK(a.total("omp_limited_parallelism") == Approx(250 * ns));
    // Region 2's wait of the master (200) is thread 2's excess work since
    // the fork: 250 - 50.
    CHECK(a.at("delay_ompbarrier", in(20, "work"), 0, 2) == Approx(200 * ns));
}

TEST_CASE("OpenMP summary: idle worker threads and thread imbalance", "[openmp][summary]") {
    const Analysis a = analyse(one_region());
    // The worker's time: the region from fork to join (300) and its idle
    // 700 (main 200, serial 500): 1000; with the master's 1000 the total
    // time is 2000. Idle: 700 / 1000 = 70.0 % of the worker's time, 35.0 %
    // of all; most during the master's serial (500). Barrier waits: the
    // master's 100 at the implicit barrier (5.0 %), one visit: the worker
    // came 100 ns after it. Its causes: the worker's excess work 90 and
    // late start 10 (delay_ompbarrier above).
    CHECK(summary_section(a.summary, "OpenMP threads") ==
          std::string("OpenMP threads:\n"
                      "  Idle worker threads: 700 ns, 70.0 % of the worker threads' time (35.0 %)\n"
                      "    mostly while the master ran main > serial (500 ns), most on rank 0 (500 ns)\n") +
              kIdleAdvice +
              "  Thread imbalance in parallel regions (waiting in OpenMP barriers for the team's last thread): "
              "100 ns (5.0 %)\n"
              "    mostly in main > !$omp parallel @a.c:1 at its !$omp implicit barrier @a.c:9 (100 ns)\n"
              "    the last thread arrived 100 ns after rank 0, Master thread (its wait)\n"
              "    caused mostly by (delay costs over the run):\n"
              "      main > !$omp parallel @a.c:1 > work on rank 0, OMP thread 1: 90.0 ns\n"
              "      main > !$omp parallel @a.c:1 on rank 0, OMP thread 1: 10.0 ns\n" +
              kImbalanceAdvice);
}

TEST_CASE("OpenMP summary: a run without threads has no thread section", "[openmp][summary]") {
    TraceBuilder t(1);
    t.rank(0).enter(0, "main").region(10, 90, "serial").leave(100);
    const Analysis a = analyse(t);
    CHECK(a.summary.find("Largest wait states:") != std::string::npos);
    CHECK(summary_section(a.summary, "OpenMP threads").empty());
}

TEST_CASE("OpenMP summary: idle threads point at the program's work, not at MPI's start", "[openmp][summary]") {
    // One rank of two threads. The master: main 0-1000, MPI_Init_thread
    // 0-600, forks at 600, works 600-700, waits in the implicit barrier
    // 700-800, joins at 800, works serially 800-900, finalizes 900-950.
    // The worker works 600-790 and enters the barrier at 790.
    TraceBuilder t(1);
    t.set_threads(2);
    auto& master = t.rank(0);
    master.enter(0, "main").region(0, 600, "MPI_Init_thread");
    master.fork(600, 2).team_begin(600).enter(600, "!$omp parallel @a.c:1");
    master.region(600, 700, "work").region(700, 800, "!$omp implicit barrier @a.c:9");
    master.leave(800).team_end(800).join(800).region(800, 900, "serial").finalize(900, 950).leave(1000);
    auto& worker = t.thread(0, 1);
    worker.team_begin(600).enter(600, "!$omp parallel @a.c:1");
    worker.region(600, 790, "work").region(790, 800, "!$omp implicit barrier @a.c:9");
    worker.leave(800).team_end(800);
    const Analysis a = analyse(t);
    // The worker idles 800 of its 1000: 600 in the master's
    // MPI_Init_thread, 100 in serial, 50 in main, 50 in MPI_Finalize. The
    // runtimes' start is no work of the program: the line names serial.
    CHECK(summary_section(a.summary, "OpenMP threads").find(
              "  Idle worker threads: 800 ns, 80.0 % of the worker threads' time (40.0 %)\n"
              "    mostly while the master ran main > serial (100 ns), most on rank 0 (100 ns)\n") !=
          std::string::npos);
}

TEST_CASE("OpenMP: critical and lock API contention, an explicit barrier they delay", "[openmp]") {
    TraceBuilder t(1);
    t.set_threads(2);
    const std::string region = "!$omp parallel @b.c:1", critical = "!$omp critical @b.c:5",
                      body = "!$omp critical sblock @b.c:5";
    // Master: the critical section first (lock 1, order 1) 10-30, the lock
    // API's lock 2 taken in omp_set_lock 60-71 (at 70, order 2) and given
    // back in omp_unset_lock 80-81, the explicit barrier 85-95, the
    // implicit one 95-100. Main 0-200, fork at 0, join at 100.
    auto& master = t.rank(0);
    master.enter(0, "main").fork(0, 2).team_begin(0).enter(0, region);
    master.enter(10, critical).acquire_lock(10, 1, 1).region(10, 30, body).release_lock(30, 1, 1).leave(30);
    master.enter(60, "omp_set_lock").acquire_lock(70, 2, 2).leave(71);
    master.enter(80, "omp_unset_lock").release_lock(80, 2, 2).leave(81);
    master.region(85, 95, "!$omp barrier @b.c:8").region(95, 100, "!$omp implicit barrier @b.c:9");
    master.leave(100).team_end(100).join(100).leave(200);
    // Worker: enters the critical construct at 15, takes lock 1 (order 2)
    // at 30 when the master gave it back, body 30-50; takes lock 2 first
    // (order 1) in omp_set_lock 55-56, gives it back in omp_unset_lock
    // 70-71; the explicit barrier 90-95, the implicit one 95-100.
    auto& worker = t.thread(0, 1);
    worker.team_begin(0).enter(0, region);
    worker.enter(15, critical).acquire_lock(30, 1, 2).region(30, 50, body).release_lock(50, 1, 2).leave(50);
    worker.enter(55, "omp_set_lock").acquire_lock(55, 2, 1).leave(56);
    worker.enter(70, "omp_unset_lock").release_lock(70, 2, 1).leave(71);
    worker.region(90, 95, "!$omp barrier @b.c:8").region(95, 100, "!$omp implicit barrier @b.c:9");
    worker.leave(100).team_end(100);
    const Analysis a = analyse(t);
    const std::string r = "main/" + region;
    // Critical contention: the worker entered the construct at 15, the
    // previous acquisition (the master's) was released at 30: 15, at the
    // construct (not its body). The master's was the first: none.
    CHECK(a.at("omp_lock_contention_critical", r + "/" + critical, 0, 1) == Approx(15 * ns));
    CHECK(a.at("omp_lock_contention_critical", r + "/" + critical, 0, 0) == 0);
    CHECK(a.total("omp_lock_contention_critical") == Approx(15 * ns));
    // Lock API contention: the master entered omp_set_lock at 60, the
    // worker released order 1 at 70: 10.
    CHECK(a.at("omp_lock_contention_api", r + "/omp_set_lock", 0, 0) == Approx(10 * ns));
    CHECK(a.total("omp_lock_contention_api") == Approx(10 * ns));
    // Explicit barrier: the master waits 85-90, 5; the implicit barrier
    // sees both at 95: no wait.
    CHECK(a.at("omp_ebarrier_wait", r + "/!$omp barrier @b.c:8", 0, 0) == Approx(5 * ns));
    CHECK(a.total("omp_ebarrier_wait") == Approx(5 * ns));
    CHECK(a.total("omp_ibarrier_wait") == 0);
    // Its cost: since the fork the worker spent (until 90) 53 in the region
    // itself (0-15, 50-55, 56-70, 71-90), 15 in the critical construct
    // (contention is no synchronization point), 20 in its body, 1 in each
    // lock function; the master (until 85) 53 in the region (0-10, 30-60,
    // 71-80, 81-85), 20 in the body, 11 and 1 in the lock functions. The
    // only excess, 15 at the construct, explains the 5 ns wait: 5 there.
    CHECK(a.at("delay_ompbarrier", r + "/" + critical, 0, 1) == Approx(5 * ns));
    CHECK(a.total("delay_ompbarrier") == Approx(5 * ns));
    // Management: both threads from fork to join: none.
    CHECK(a.total("omp_management") == 0);
    // Idle threads: the master's main 0-200 less the region's 100.
    CHECK(a.at("omp_idle_threads", "main", 0, 1) == Approx(100 * ns));
    CHECK(a.at("delay_ompidle", "main", 0, 0) == Approx(100 * ns));
}

TEST_CASE("OpenMP: seed 001's Figure 13, a worker's delay through the barrier into MPI", "[openmp][figure13]") {
    const Analysis a = analyse(figure13());
    const std::string r1 = "!$omp parallel @f.c:10", b1 = "!$omp implicit barrier @f.c:19";
    const std::string r2 = "!$omp parallel @f.c:30", b2 = "!$omp implicit barrier @f.c:39";
    CHECK(a.warnings == "none");
    REQUIRE(a.report.locations().size() == 4);
    // Barrier waits: rank 0's master 2000-3000 in region 1; in region 2 each
    // worker 4190-4200. 1000 + 10 + 10.
    CHECK(a.at("omp_ibarrier_wait", "main/" + r1 + "/" + b1, 0, 0) == Approx(1000 * ns));
    CHECK(a.at("omp_ibarrier_wait", "main/" + r2 + "/" + b2, 0, 1) == Approx(10 * ns));
    CHECK(a.at("omp_ibarrier_wait", "main/" + r2 + "/" + b2, 1, 1) == Approx(10 * ns));
    CHECK(a.total("omp_ibarrier_wait") == Approx(1020 * ns));
    // The MPI phase starts late: rank 1 waits 2000-3000 for the send.
    CHECK(a.at("mpi_latesender", "main/MPI_Recv", 1, 0) == Approx(1000 * ns));
    // Barrier costs: region 1 on rank 0, the worker computed 2000 against
    // the master's 1000 (all of the 1000 wait); region 2, each master
    // updated 1000 against its worker's 990 (the 10 wait).
    CHECK(a.at("delay_ompbarrier", "main/" + r1 + "/compute", 0, 1) == Approx(1000 * ns));
    CHECK(a.at("delay_ompbarrier", "main/" + r2 + "/update", 0, 0) == Approx(10 * ns));
    CHECK(a.at("delay_ompbarrier", "main/" + r2 + "/update", 1, 0) == Approx(10 * ns));
    CHECK(a.total("delay_ompbarrier") == Approx(1020 * ns));
    // Idle threads: each worker idles for its master's time outside the
    // regions. Rank 0: main 4310 - 100 - 2000 - 100 - 1000 - 10 = 1100,
    // MPI_Init 100, MPI_Send 100, MPI_Finalize 10: 1310. Rank 1: main 4320
    // - 100 - 1000 - 1100 - 1000 - 10 = 1110, MPI_Init 100, MPI_Recv 1100,
    // MPI_Finalize 10: 2320. Together 3630.
    CHECK(a.at("omp_idle_threads", "main", 0, 1) == Approx(1100 * ns));
    CHECK(a.at("omp_idle_threads", "main/MPI_Recv", 1, 1) == Approx(1100 * ns));
    CHECK(a.total("omp_idle_threads") == Approx(3630 * ns));
    // Idleness costs (short-term): the same serial time on the masters
    // without their MPI waits, times one worker. Rank 0: 1310 less its
    // 10 wait at Finalize (rank 1 enters 10 later) = 1300; rank 1: 2320
    // less the Late Sender's 1000 = 1320. Together 2620; the idleness
    // during the two waits is long-term (below).
    CHECK(a.at("delay_ompidle", "main/MPI_Recv", 1, 0) == Approx(100 * ns));
    CHECK(a.total("delay_ompidle") == Approx(2620 * ns));
    // The summary. Each worker's time is its rank's span (its regions and
    // its idling): 4310 + 4320 = 8630; all threads 2 * 8630 = 17260. Idle
    // 3630 = 42.1 % of the workers' time, 21.0 % of all; most at main
    // (1100 + 1110 = 2210), most of that on rank 1 (1110). Barrier waits
    // 1020 (5.9 %), most at region 1's barrier (rank 0's master, 1000, one
    // visit); the delay costs as above, ties in rank order.
    CHECK(summary_section(a.summary, "OpenMP threads") ==
          std::string("OpenMP threads:\n"
                      "  Idle worker threads: 3.63 µs, 42.1 % of the worker threads' time (21.0 %)\n"
                      "    mostly while the master ran main (2.21 µs), most on rank 1 (1.11 µs)\n") +
              kIdleAdvice +
              "  Thread imbalance in parallel regions (waiting in OpenMP barriers for the team's last thread): "
              "1.02 µs (5.9 %)\n"
              "    mostly in main > " + r1 + " at its " + b1 + " (1.00 µs)\n"
              "    the last thread arrived 1.00 µs after rank 0, Master thread (its wait)\n"
              "    caused mostly by (delay costs over the run):\n"
              "      main > " + r1 + " > compute on rank 0, OMP thread 1: 1.00 µs\n"
              "      main > " + r2 + " > update on rank 0, Master thread: 10.0 ns\n"
              "      main > " + r2 + " > update on rank 1, Master thread: 10.0 ns\n" +
              kImbalanceAdvice);
}

TEST_CASE("OpenMP: the profile per communicator and the matrix of a hybrid run", "[openmp][communicators]") {
    // Figure 13's MPI phase (above): rank 0 sends 8 bytes to rank 1 in
    // MPI_Send 3000-3100 (100 ns); rank 1 receives in MPI_Recv 2000-3100
    // (1100 ns, of which 1000 waiting for the send), on MPI_COMM_WORLD of 2
    // ranks. The OpenMP thread teams are no MPI communicators.
    TraceBuilder t(2);
    t.set_threads(2);
    const std::string region = "!$omp parallel @g.c:1";
    for (int r = 0; r < 2; ++r) {
        t.rank(r).enter(0, "main").init(0, 100);
        t.rank(r).fork(1000, 2).team_begin(1000).enter(1000, region).leave(2000).team_end(2000).join(2000);
        t.thread(r, 1).team_begin(1000).enter(1000, region).region(1000, 1900, "compute").leave(2000).team_end(2000);
    }
    t.rank(0).region(2000, 3000, "compute").send(3000, 3100, 1, 0, 8).finalize(3200, 3300).leave(3300);
    t.rank(1).recv(2000, 3100, 0, 0, 8).finalize(3200, 3300).leave(3300);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    INFO(a.communicators_csv);
    CHECK(a.communicators_csv.rfind("communicator_id,communicator,size,topology,reorder,operation,operations,calls,"
                                    "time_s,waiting_s,bytes_sent,bytes_received\n",
                                    0) == 0);
    check_row(a.operation_row(kWorldColumns, "MPI_Send"), {1, 1, 100, 0, 8, 0});
    check_row(a.operation_row(kWorldColumns, "MPI_Recv"), {1, 1, 1100, 1000, 0, 8});
    CHECK(a.communicators_csv.find("team") == std::string::npos);
    // The matrix: one message of 8 bytes from rank 0 to rank 1, nothing
    // else between the two ranks' masters.
    CHECK(a.communication_json.find("\"ranks\":2,\n\"rank_matrix\":[\n  [0,1,1,8,0]]") != std::string::npos);
}

TEST_CASE("OpenMP: seed 001's Figure 13, MPI costs and idleness through the barrier wait", "[openmp][figure13]") {
    const Analysis a = analyse(figure13());
    const std::string compute = "main/!$omp parallel @f.c:10/compute";
    // The Late Sender's interval (since MPI_Init) holds on rank 1 main 900
    // (100-1000) and compute 1000 before its receive at 2000; on rank 0,
    // before its send at 3000, main 900, compute 1000 and the master's
    // barrier wait of 1000, which is waiting, not work. Rank 0 did no more
    // than rank 1 anywhere: its barrier wait explains the whole wait
    // (scale 1000 / (0 + 1000)). So no short-term Late Sender costs, and
    // the wait is indirect, not propagating (it made nobody wait).
    CHECK(a.total("delay_latesender") == Approx(0).margin(1e-15));
    CHECK(a.at("mpi_wait_indirect_latesender", "main/MPI_Recv", 1, 0) == Approx(1000 * ns));
    CHECK(a.total("mpi_wait_direct_latesender") == Approx(0).margin(1e-15));
    CHECK(a.total("mpi_wait_propagating_ls") == Approx(0).margin(1e-15));
    // The barrier wait's 1000 of long-term Late Sender costs go where the
    // barrier's own costs went: rank 0's worker computed 2000 since the
    // fork against its master's 1000, all of the excess.
    CHECK(a.at("delay_latesender_longterm", compute, 0, 1) == Approx(1000 * ns));
    CHECK(a.total("delay_latesender_longterm") == Approx(1000 * ns));
    // Idleness during the waits, (2 - 1) x each wait: rank 1's Late Sender
    // 1000 travels with the wait's costs to rank 0's worker as above. Rank
    // 0's 10 at MPI_Finalize goes to rank 1, which entered last: its
    // interval since the receive holds main 210 (3100-3200, 4200-4310) and
    // update 1000 (of the receive only its time after the send call ended
    // counts: none, both end at 3100); rank 0's since its send main 200
    // (3100-3200, 4200-4300) and update 1000. The one excess, main's 10,
    // takes all of it.
    CHECK(a.at("delay_ompidle_longterm", compute, 0, 1) == Approx(1000 * ns));
    CHECK(a.at("delay_ompidle_longterm", "main", 1, 0) == Approx(10 * ns));
    CHECK(a.at("delay_ompidle_longterm", "main/MPI_Recv", 1, 0) == 0);
    CHECK(a.total("delay_ompidle_longterm") == Approx(1010 * ns));
    // Short- plus long-term idleness costs are the idle threads' time.
    CHECK(a.total("delay_ompidle") + a.total("delay_ompidle_longterm") == Approx(a.total("omp_idle_threads")));
    // The barrier waits pass no costs on: none long-term.
    CHECK(a.total("delay_ompbarrier_longterm") == 0);
}

TEST_CASE("OpenMP: what the analysis leaves out is a warning, the report is written", "[openmp]") {
    // One rank of two threads; the worker skips the region's explicit
    // barrier and calls MPI_Barrier alone (a collective on a worker).
    TraceBuilder t(1);
    t.set_threads(2);
    t.rank(0).enter(0, "main").fork(0, 2).team_begin(0).enter(0, "!$omp parallel");
    t.rank(0).region(10, 20, "!$omp barrier").leave(30).team_end(30).join(30).leave(40);
    t.thread(0, 1).team_begin(0).enter(0, "!$omp parallel").barrier(5, 6).leave(30).team_end(30);
    const Analysis a = analyse(t);
    CHECK(a.warnings ==
          "rank 0: 2 MPI collective records on 1 OpenMP worker thread(s) are not replayed (the replay leaves their "
          "operations out on every member; they are analyzed apart, their critical path only where a "
          "master waited); "
          "rank 0: a parallel region whose threads do not all take part in it and in each of its barriers is left out "
          "of the OpenMP barrier analysis");
    CHECK(a.total("omp_ebarrier_wait") == 0);
    // The rest is analyzed: the worker's region from fork (0) to join (30)
    // less its MPI_Barrier visit 5-6: 29; the visit itself 1.
    CHECK(a.at("time", "main/!$omp parallel", 0, 1) == Approx(29 * ns));
    CHECK(a.at("time", "main/!$omp parallel/MPI_Barrier", 0, 1) == Approx(1 * ns));
}

TEST_CASE("OpenMP: the master's region, too, lasts from the fork to the join", "[openmp]") {
    // As one_region(), but the master enters the region at 120, 20 after
    // its fork at 100, and leaves it at 390, 10 before its join at 400.
    TraceBuilder t(1);
    t.set_threads(2);
    auto& master = t.rank(0);
    master.enter(0, "main").fork(100, 2).team_begin(100).enter(120, "!$omp parallel @a.c:1");
    master.region(120, 200, "work").region(200, 390, "!$omp implicit barrier @a.c:9");
    master.leave(390).team_end(390).join(400).region(400, 900, "serial").leave(1000);
    auto& worker = t.thread(0, 1);
    worker.team_begin(110).enter(110, "!$omp parallel @a.c:1");
    worker.region(110, 300, "work").region(300, 390, "!$omp implicit barrier @a.c:9");
    worker.leave(395).team_end(395);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    // The region counts 100-400 on the master: 300, less work 80 and the
    // barrier 190: 30 of its own; main keeps 1000 - 300 - 500 = 200.
    CHECK(a.at("time", kRegion, 0, 0) == Approx(30 * ns));
    CHECK(a.at("time", "main", 0, 0) == Approx(200 * ns));
    // Its late entry is the fork's overhead on the master.
    CHECK(a.at("omp_fork", kRegion, 0, 0) == Approx(20 * ns));
    // The serial phases are main's 200 and serial's 500: what the worker
    // idles, and (one worker) the master's idleness delay costs.
    CHECK(a.at("omp_idle_threads", "main", 0, 1) == Approx(200 * ns));
    CHECK(a.at("omp_idle_threads", "main/serial", 0, 1) == Approx(500 * ns));
    CHECK(a.at("delay_ompidle", "main", 0, 0) == Approx(200 * ns));
    CHECK(a.at("delay_ompidle", "main/serial", 0, 0) == Approx(500 * ns));
}

TEST_CASE("OpenMP: tasks a thread runs in a barrier are work, the rest of its time there waiting", "[openmp][tasks]") {
    // One rank of two threads, forked at 100, joined at 400. The master
    // works 100-250, is in the explicit barrier 250-260 and in the closing
    // implicit barrier 260-390, where it runs two tasks, 270-300 and
    // 350-370. The worker enters at 110, works 110-150, is in the explicit
    // barrier 150-260, running a task 160-200 there, works 260-340 and is in
    // the implicit barrier 340-390. Each task's run has Score-P's switch
    // and completion records beside its region.
    const std::string ebarrier = "!$omp barrier @a.c:5", ibarrier = "!$omp implicit barrier @a.c:9",
                      task = "!$omp task @a.c:3";
    TraceBuilder t(1);
    t.set_threads(2);
    using Task = event::ThreadTask::Kind;
    const auto run_task = [&](RankBuilder& thread, Ticks from, Ticks to, std::uint32_t generation) {
        thread.task_record(from, Task::Switch, 0, generation).region(from, to, task);
        thread.task_record(to, Task::Complete, 0, generation);
    };
    auto& master = t.rank(0);
    master.enter(0, "main").fork(100, 2).team_begin(100).enter(100, "!$omp parallel @a.c:1");
    master.region(100, 250, "work").region(250, 260, ebarrier).enter(260, ibarrier);
    run_task(master, 270, 300, 2);
    run_task(master, 350, 370, 3);
    master.leave(390).leave(400).team_end(400).join(400).leave(1000);
    auto& worker = t.thread(0, 1);
    worker.team_begin(110).enter(110, "!$omp parallel @a.c:1").region(110, 150, "work").enter(150, ebarrier);
    run_task(worker, 160, 200, 1);
    worker.leave(260);
    worker.region(260, 340, "work").region(340, 390, ibarrier).leave(395).team_end(395);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    const std::string at_ebarrier = kRegion + "/" + ebarrier, at_ibarrier = kRegion + "/" + ibarrier;
    // The master came last to the explicit barrier (250): the worker was in
    // it from 150, 100, of which it ran a task 40: it waited 60.
    CHECK(a.at("omp_ebarrier_wait", at_ebarrier, 0, 1) == Approx(60 * ns));
    CHECK(a.at("omp_ebarrier_wait", at_ebarrier, 0, 0) == 0);
    // The worker came last to the implicit barrier (340): the master was in
    // it from 260, 80, of which it ran a task 30 (the other one began after
    // 340): it waited 50.
    CHECK(a.at("omp_ibarrier_wait", at_ibarrier, 0, 0) == Approx(50 * ns));
    CHECK(a.at("omp_ibarrier_wait", at_ibarrier, 0, 1) == 0);
    // The tasks are the threads' work, below the barrier they ran in: the
    // master's two 50 in all, the worker's 40; each barrier keeps the rest,
    // the master's implicit one 130 - 50 = 80, the worker's explicit one
    // 110 - 40 = 70, its wait a part of it.
    CHECK(a.at("time", at_ibarrier + "/" + task, 0, 0) == Approx(50 * ns));
    CHECK(a.at("visits", at_ibarrier + "/" + task, 0, 0) == 2);
    CHECK(a.at("time", at_ebarrier + "/" + task, 0, 1) == Approx(40 * ns));
    CHECK(a.at("omp_ibarrier", at_ibarrier, 0, 0) == Approx(80 * ns));
    CHECK(a.at("omp_ebarrier", at_ebarrier, 0, 1) == Approx(70 * ns));
    CHECK(a.total("omp_time") == Approx(80 * ns + 70 * ns + 10 * ns + 50 * ns + 15 * ns));
    // Delay costs: at the explicit barrier the master worked 150 since the
    // fork, the worker 40 (and 10 at the region before it entered): the
    // master's excess work 110 explains the worker's 60. At the implicit
    // one, since both left the explicit barrier at 260, the worker worked
    // 80, the master nothing: 80 explains the master's 50.
    CHECK(a.at("delay_ompbarrier", kWork, 0, 0) == Approx(60 * ns));
    CHECK(a.at("delay_ompbarrier", kWork, 0, 1) == Approx(50 * ns));
    CHECK(a.total("delay_ompbarrier") == Approx(110 * ns));
}

TEST_CASE("OpenMP: a worker's one-sided transfers and file bytes count on the worker", "[openmp]") {
    // Rank 0's worker puts 8 bytes to rank 1 (MPI_Put) and fetches 16
    // (MPI_Get), flushes, writes 4 bytes to a file and reads 6 in a
    // collective read.
    TraceBuilder t = two_ranks_in_a_region();
    const auto win = t.window(t.world());
    const auto file = t.file("out.dat", std::nullopt);
    auto& worker = t.thread(0, 1);
    worker.put(300, 310, win, 1, 8).get(320, 330, win, 1, 16).win_flush(340, 350, win, 1);
    worker.file_io(360, 370, "MPI_File_write", file, false, false, 4);
    worker.file_io(380, 390, "MPI_File_read_all", file, true, true, 6);
    end_the_region(t);
    const Analysis a = analyse(t);
    const std::string region = "main/!$omp parallel @a.c:1/";
    // Each at the worker's call that issued or completed it, none on the
    // master; the flush's two completions and the collective read's are
    // said to have no wait-state analysis.
    CHECK(a.at("comms_rma_puts", region + "MPI_Put", 0, 1) == 1);
    CHECK(a.at("bytes_put", region + "MPI_Put", 0, 1) == 8);
    CHECK(a.at("comms_rma_gets", region + "MPI_Get", 0, 1) == 1);
    CHECK(a.at("bytes_get", region + "MPI_Get", 0, 1) == 16);
    CHECK(a.at("io_bytes_written", region + "MPI_File_write", 0, 1) == 4);
    CHECK(a.at("io_bytes_read", region + "MPI_File_read_all", 0, 1) == 6);
    CHECK(a.total("bytes_put") == 8);
    CHECK(a.total("io_bytes_read") == 6);
    CHECK(a.warnings.find("rank 0: 3 records of one-sided epochs (or of collective file or window operations "
                          "without a communicator) on 1 OpenMP worker thread(s) are not analyzed for wait states") !=
          std::string::npos);
}

TEST_CASE("OpenMP: a collective file operation on a worker waits for the last member to begin it", "[openmp]") {
    // Two ranks of two threads, a file opened on MPI_COMM_WORLD, in the
    // region 200-600:
    //  1. MPI_File_write_all of 8 bytes: rank 0's worker 300-340, rank 1's
    //     master 250-345;
    //  2. a split MPI_File_write_all of 8 bytes by rank 0's worker (begun
    //     in 400-410, ended in 430-500), a blocking one by rank 1's worker
    //     in 450-505.
    // Each operation begins where its begin call is entered.
    TraceBuilder t = two_ranks_in_a_region();
    const auto file = t.file("out.dat", t.world());
    auto& worker = t.thread(0, 1);
    worker.file_io(300, 340, "MPI_File_write_all", file, false, true, 8);
    worker.file_io_end(430, 500, "MPI_File_write_all_end",
                       worker.file_io_start(400, 410, "MPI_File_write_all_begin", file, false, true, 8));
    t.rank(1).file_io(250, 345, "MPI_File_write_all", file, false, true, 8);
    t.thread(1, 1).file_io(450, 505, "MPI_File_write_all", file, false, true, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    const std::string region = "main/!$omp parallel @a.c:1/";
    // 1: rank 1's master waited from its entry (250) to the worker's
    // begin (300). 2: rank 0's worker, having begun at 400, waited in the
    // end call from its entry (430) to rank 1's begin (450).
    CHECK(a.at("mpi_io_wait_nxn", region + "MPI_File_write_all", 1, 0) == Approx(50 * ns));
    CHECK(a.at("mpi_io_wait_nxn", region + "MPI_File_write_all", 0, 1) == 0);
    CHECK(a.at("mpi_io_wait_nxn", region + "MPI_File_write_all_end", 0, 1) == Approx(20 * ns));
    CHECK(a.at("mpi_io_wait_nxn", region + "MPI_File_write_all", 1, 1) == 0);
    CHECK(a.total("mpi_io_wait_nxn") == Approx(70 * ns));
    // The bytes at the completing calls; no collective communication.
    CHECK(a.at("io_bytes_written", region + "MPI_File_write_all", 0, 1) == 8);
    CHECK(a.at("io_bytes_written", region + "MPI_File_write_all_end", 0, 1) == 8);
    CHECK(a.at("io_bytes_written", region + "MPI_File_write_all", 1, 0) == 8);
    CHECK(a.total("syncs_coll") == 0);
    CHECK(a.total("comms_cxch") == 0);
    // Every collective record of the workers is measured apart; nothing is
    // left without analysis.
    CHECK(a.warnings.find("rank 0: 2 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    CHECK(a.warnings.find("rank 1: 1 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    CHECK(a.warnings.find("not analyzed for wait states") == std::string::npos);
}

TEST_CASE("OpenMP: a window's creation and fence on a worker wait for the last member", "[openmp]") {
    // Two ranks of two threads, a window on MPI_COMM_WORLD. In the region
    // (200-600): MPI_Win_create by rank 0's worker in 250-300 and rank 1's
    // master in 220-310; MPI_Win_fence by rank 0's worker in 400-420 and
    // rank 1's worker in 350-430. After the region both masters free the
    // window, rank 0 in 620-640, rank 1 in 630-640.
    TraceBuilder t = two_ranks_in_a_region();
    const auto win = t.window(t.world());
    t.thread(0, 1).win_create(250, 300, win).win_fence(400, 420, win);
    t.rank(1).win_create(220, 310, win);
    t.thread(1, 1).win_fence(350, 430, win);
    const Ticks free_entry[] = {620, 630};
    for (int r = 0; r < 2; ++r) {
        t.rank(r).leave(600).team_end(600).join(600).win_free(free_entry[r], 640, win).finalize(700, 710).leave(710);
        t.thread(r, 1).leave(600).team_end(600);
    }
    const Analysis a = analyse(t);
    const std::string region = "main/!$omp parallel @a.c:1/";
    // Rank 1's master waited for rank 0's worker to create the window from
    // 220 to 250, rank 1's worker for the fence from 350 to 400; the
    // masters' release after the region is the replay's: rank 0 waited
    // from 620 to 630.
    CHECK(a.at("mpi_rma_wait_at_create", region + "MPI_Win_create", 1, 0) == Approx(30 * ns));
    CHECK(a.at("mpi_rma_wait_at_create", region + "MPI_Win_create", 0, 1) == 0);
    CHECK(a.at("mpi_rma_wait_at_fence", region + "MPI_Win_fence", 1, 1) == Approx(50 * ns));
    CHECK(a.at("mpi_rma_wait_at_fence", region + "MPI_Win_fence", 0, 1) == 0);
    CHECK(a.at("mpi_rma_wait_at_free", "main/MPI_Win_free", 0, 0) == Approx(10 * ns));
    CHECK(a.total("syncs_coll") == 0);
    // The begin and end records of each window operation on a worker.
    CHECK(a.warnings.find("rank 0: 4 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    CHECK(a.warnings.find("rank 1: 2 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    CHECK(a.warnings.find("not analyzed for wait states") == std::string::npos);
    CHECK(a.warnings.find("MPI_COMM_WORLD") == std::string::npos);
}

TEST_CASE("OpenMP: a worker's messages pair with any thread of the peer, and wait as Late Senders there", "[openmp]") {
    // Two ranks of two threads, one parallel region forked at 200 and
    // joined at 600 on each. Rank 0's worker sends 64 bytes (tag 5) to rank
    // 1 in 300-400, which rank 1's master receives in 220-420; rank 1's
    // worker receives 32 bytes (tag 6) in 250-450, which rank 0's master
    // sends in 350-360. Rank 1's worker then takes part in a reduction to
    // itself (16 bytes each) in 460-480, which nobody else makes, and
    // receives 8 bytes (tag 9) with MPI_Irecv 490-495 and MPI_Wait 500-510,
    // which nobody sends.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).send(300, 400, 1, 5, 64);
    t.rank(1).recv(220, 420, 0, 5, 64);
    t.thread(1, 1).recv(250, 450, 0, 6, 32);
    t.rank(0).send(350, 360, 1, 6, 32);
    t.thread(1, 1).reduce(460, 480, 1, 16);
    const RequestId late = t.thread(1, 1).irecv(490, 495, 0, 9, 8);
    t.thread(1, 1).wait(500, 510, late);
    end_the_region(t);
    const Analysis a = analyse(t);
    // Rank 1's worker: the reduction's MPI_COLLECTIVE_BEGIN and _END; the
    // receive without a send. The reduction is the second collective of
    // MPI_COMM_WORLD on rank 1, MPI_Finalize on rank 0: both ranks say that
    // its members disagree. Nothing else is left out.
    CHECK(a.warnings.find("rank 1: 2 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    const std::string disagree = ": 1 MPI collective operations of OpenMP worker threads name different operations";
    CHECK(a.warnings.find("rank 0" + disagree) != std::string::npos);
    CHECK(a.warnings.find("rank 1" + disagree) != std::string::npos);
    std::size_t rank0_lines = 0;
    for (std::size_t at = a.warnings.find("rank 0: "); at != std::string::npos; at = a.warnings.find("rank 0: ", at + 1))
        ++rank0_lines;
    CHECK(rank0_lines == 1);
    CHECK(a.warnings.find("1 receive of rank 1 from rank 0 has no matching send (at " + kRegion + "/MPI_Wait)") !=
          std::string::npos);
    // The workers' calls are theirs: time, visit, message and bytes.
    CHECK(a.at("time", kRegion + "/MPI_Send", 0, 1) == Approx(100 * ns));
    CHECK(a.at("visits", kRegion + "/MPI_Send", 0, 1) == 1);
    CHECK(a.at("comms_send", kRegion + "/MPI_Send", 0, 1) == 1);
    CHECK(a.at("bytes_sent", kRegion + "/MPI_Send", 0, 1) == 64);
    CHECK(a.at("time", kRegion + "/MPI_Recv", 1, 1) == Approx(200 * ns));
    CHECK(a.at("bytes_rcvd", kRegion + "/MPI_Recv", 1, 1) == 32);
    // The masters' sides of these messages count on the masters.
    CHECK(a.at("comms_send", kRegion + "/MPI_Send", 0, 0) == 1);
    CHECK(a.at("bytes_sent", kRegion + "/MPI_Send", 0, 0) == 32);
    CHECK(a.at("bytes_rcvd", kRegion + "/MPI_Recv", 1, 0) == 64);
    // Late Sender on rank 1's master: it entered MPI_Recv at 220, the
    // worker's MPI_Send at 300: 80, one late message, a part of the
    // receives' communications (the report's values include their parts).
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 0) == Approx(80 * ns));
    CHECK(a.at("mpi_cls_count", kRegion + "/MPI_Recv", 1, 0) == 1);
    CHECK(a.at("comms_recv", kRegion + "/MPI_Recv", 1, 0) == 1);
    CHECK(a.at("mpi_point2point", kRegion + "/MPI_Recv", 1, 0) == Approx(200 * ns));
    // ... and on rank 1's worker: MPI_Recv at 250, the master's send at 350.
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(100 * ns));
    CHECK(a.at("mpi_cls_count", kRegion + "/MPI_Recv", 1, 1) == 1);
    CHECK(a.at("comms_recv", kRegion + "/MPI_Recv", 1, 1) == 1);
    CHECK(a.at("mpi_point2point", kRegion + "/MPI_Recv", 1, 1) == Approx(200 * ns));
    CHECK(a.total("mpi_latesender") == Approx(180 * ns));
    // Delay costs go to the thread that sent late, over the interval since
    // MPI_Init (its masters' last synchronization outside regions; a
    // worker's history before its team is its master's before the fork).
    // Rank 1's master, to 220: MPI_Init 100, main 100, region 20; rank 0's
    // worker, to 300: its master's MPI_Init 100 and main 100, then region
    // 100: 80 more in the region. Rank 1's worker, to 250: its master's 100
    // and 100, then region 50; rank 0's master, to 350: 100, 100, region
    // 150: 100 more. Nobody waited in those intervals: all short-term, all
    // direct, none propagated.
    CHECK(a.at("delay_latesender", kRegion, 0, 1) == Approx(80 * ns));
    CHECK(a.at("delay_latesender", kRegion, 0, 0) == Approx(100 * ns));
    CHECK(a.total("delay_latesender") == Approx(180 * ns));
    CHECK(a.total("delay_latesender_longterm") == 0);
    CHECK(a.at("mpi_wait_direct_latesender", kRegion + "/MPI_Recv", 1, 0) == Approx(80 * ns));
    CHECK(a.at("mpi_wait_direct_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(100 * ns));
    CHECK(a.total("mpi_wait_indirect_latesender") == 0);
    CHECK(a.at("mpi_wait_terminal_ls", kRegion + "/MPI_Recv", 1, 1) == Approx(100 * ns));
    CHECK(a.total("mpi_wait_propagating_ls") == 0);
    CHECK(a.summary.find("  Late Sender: 180 ns") != std::string::npos);
    // The longest single waits name the thread that waited, longest first.
    CHECK(a.summary.find("    longest single waits (starting at seconds since the trace's start):\n"
                         "      rank 1, OMP thread 1 at 0.000000 s: 100 ns in main > !$omp parallel @a.c:1 > MPI_Recv\n"
                         "      rank 1 at 0.000000 s: 80.0 ns in main > !$omp parallel @a.c:1 > MPI_Recv\n") !=
          std::string::npos);
    // The reduction at its root (N = 2): out 16, in 2 x 16, both ways.
    CHECK(a.at("comms_cxch", kRegion + "/MPI_Reduce", 1, 1) == 1);
    CHECK(a.at("bytes_cout", kRegion + "/MPI_Reduce", 1, 1) == 16);
    CHECK(a.at("bytes_cin", kRegion + "/MPI_Reduce", 1, 1) == 32);
    // A non-blocking receive counts where it completes, as the master's,
    // paired or not.
    CHECK(a.at("comms_recv", kRegion + "/MPI_Wait", 1, 1) == 1);
    CHECK(a.at("bytes_rcvd", kRegion + "/MPI_Wait", 1, 1) == 8);
    CHECK(a.at("bytes_rcvd", kRegion + "/MPI_Irecv", 1, 1) == 0);
    // The profile per communicator: the worker's reduction is a call of 20
    // ns, no operation of rank 1 (rank 0 of the communicator counts
    // operations, and made none); the two receives of 200 ns waited 80 and 100.
    INFO(a.communicators_csv);
    check_row(a.operation_row(kWorldColumns, "MPI_Reduce"), {0, 1, 20, 0, 16, 32});
    check_row(a.operation_row(kWorldColumns, "MPI_Recv"), {2, 2, 400, 180, 0, 96});
    // The matrix: rank 0's two messages (64 and 32 bytes) to rank 1; the
    // reduction's bytes stay at its root, rank 1 itself.
    CHECK(a.communication_json.find("\"ranks\":2,\n\"rank_matrix\":[\n  [0,1,2,96,0]]") != std::string::npos);
}

TEST_CASE("OpenMP: a blocking send waits as a Late Receiver for a receive on any thread", "[openmp]") {
    // Rank 0's worker sends 64 bytes (tag 5) with MPI_Send in 300-400;
    // rank 1's master receives them in MPI_Recv 350-420. Rank 0's master
    // sends 8 bytes (tag 6) with MPI_Ssend in 310-395; rank 1's worker
    // posts the receive with MPI_Irecv in 330-335 and completes it in
    // MPI_Wait 390-450.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).send(300, 400, 1, 5, 64);
    t.rank(1).recv(350, 420, 0, 5, 64);
    t.rank(0).send(310, 395, 1, 6, 8, kWorld, "MPI_Ssend");
    const RequestId request = t.thread(1, 1).irecv(330, 335, 0, 6, 8);
    t.thread(1, 1).wait(390, 450, request);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    // The worker's send waited from 300 until the receive was posted at
    // 350; the master's from 310 until the MPI_Irecv at 330.
    CHECK(a.at("mpi_latereceiver", kRegion + "/MPI_Send", 0, 1) == Approx(50 * ns));
    CHECK(a.at("mpi_clr_count", kRegion + "/MPI_Send", 0, 1) == 1);
    CHECK(a.at("mpi_latereceiver", kRegion + "/MPI_Ssend", 0, 0) == Approx(20 * ns));
    CHECK(a.at("mpi_clr_count", kRegion + "/MPI_Ssend", 0, 0) == 1);
    // Neither receive waited: each began after its send.
    CHECK(a.total("mpi_latesender") == 0);
}

TEST_CASE("OpenMP: a worker's Late Sender received before an earlier sent message is in the wrong order",
          "[openmp]") {
    // Rank 0's master sends B (tag 2) at 250-260, its worker A (tag 1) at
    // 300-310. Rank 1's worker receives A first, 220-320: a Late Sender of
    // 80, until A's send began; then B, 330-340, which was sent before A:
    // A was received in the wrong order, behind a message of the same rank.
    // B waited for nothing and is in order.
    TraceBuilder t = two_ranks_in_a_region();
    t.rank(0).send(250, 260, 1, 2, 8);
    t.thread(0, 1).send(300, 310, 1, 1, 8);
    t.thread(1, 1).recv(220, 320, 0, 1, 8).recv(330, 340, 0, 2, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    const std::string recv = kRegion + "/MPI_Recv";
    CHECK(a.at("mpi_lswo_same", recv, 1, 1) == Approx(80 * ns));
    CHECK(a.at("mpi_lswo_different", recv, 1, 1) == 0);
    // The report holds each metric with those below it: the Late Sender
    // time and count are the wrong order's, not more.
    CHECK(a.at("mpi_latesender", recv, 1, 1) == Approx(80 * ns));
    CHECK(a.at("mpi_clswo_count", recv, 1, 1) == 1);
    CHECK(a.at("mpi_cls_count", recv, 1, 1) == 1);
}

namespace {

// A polling loop on a thread of rank 1: it posts a receive from rank 0
// (tag 7, 8 bytes) at 220, tests for it at 230-232, 240-242 and 300-302 in
// vain (working 242-300), then at 320-322 successfully.
void poll_for_a_message(RankBuilder& receiver) {
    const RequestId request = receiver.irecv(220, 222, 0, 7, 8);
    receiver.test(230, 232, request, false).test(240, 242, request, false).region(242, 300, "work");
    receiver.test(300, 302, request, false).test(320, 322, request, true);
}

}  // namespace

TEST_CASE("OpenMP: a worker's polling loop waits inside its tests until the send began", "[openmp]") {
    // Rank 1's worker posts a receive (tag 7) at 220 and tests for it at
    // 230-232, 240-242 and 300-302 in vain, then at 320-322 successfully;
    // rank 0's worker sends it at 310-315. The three tests before the send
    // began waited 2 each: a Late Sender of 6 at the worker's MPI_Test, the
    // work between them its own. A second receive (tag 8), posted at 400,
    // is tested for at 410-412 in vain and completed by MPI_Wait at
    // 430-460; rank 0 sends it at 450: the test waited 2, the wait 430-450
    // (20).
    TraceBuilder t = two_ranks_in_a_region();
    auto& receiver = t.thread(1, 1);
    poll_for_a_message(receiver);
    const RequestId second = receiver.irecv(400, 402, 0, 8, 8);
    receiver.test(410, 412, second, false).region(412, 430, "work").wait(430, 460, second);
    t.thread(0, 1).send(310, 315, 1, 7, 8).send(450, 455, 1, 8, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Test", 1, 1) == Approx(8 * ns));
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Wait", 1, 1) == Approx(20 * ns));
    CHECK(a.at("mpi_latesender", kRegion + "/work", 1, 1) == 0);
}

TEST_CASE("OpenMP: a master's polling loop for a worker's send waits inside its tests", "[openmp]") {
    // The same loop on rank 1's master: it posts a receive (tag 7) at 220,
    // tests for it at 230-232, 240-242 and 300-302 in vain, at 320-322
    // successfully; rank 0's worker sends it at 310-315. The three tests
    // before the send began waited 2 each: 6 at the master's MPI_Test.
    TraceBuilder t = two_ranks_in_a_region();
    poll_for_a_message(t.rank(1));
    t.thread(0, 1).send(310, 315, 1, 7, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Test", 1, 0) == Approx(6 * ns));
    CHECK(a.at("mpi_cls_count", kRegion + "/MPI_Test", 1, 0) == 1);
    CHECK(a.at("mpi_latesender", kRegion + "/work", 1, 0) == 0);
    CHECK(a.total("mpi_latesender") == Approx(6 * ns));
}

TEST_CASE("OpenMP: a master's polling loop finds its tests after a message that left its store", "[openmp]") {
    // As before, but rank 1's master first receives a message (tag 8) from
    // rank 0's worker in 205-210, sent in 201-204: pairing takes it out of
    // the master's store, one event before the polling loop's calls.
    TraceBuilder t = two_ranks_in_a_region();
    t.rank(1).recv(205, 210, 0, 8, 8);
    poll_for_a_message(t.rank(1));
    t.thread(0, 1).send(201, 204, 1, 8, 8).send(310, 315, 1, 7, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Test", 1, 0) == Approx(6 * ns));
    CHECK(a.total("mpi_latesender") == Approx(6 * ns));
}

TEST_CASE("OpenMP: a worker's MPI_Waitall counts its longest Late Sender", "[openmp]") {
    // Rank 1's worker posts two receives from rank 0 (tag 3 in 210-215,
    // tag 4 in 216-220) and completes both in MPI_Waitall 230-500; rank 0's
    // master sends tag 3 in 300-310, its worker tag 4 in 400-410.
    TraceBuilder t = two_ranks_in_a_region();
    const RequestId first = t.thread(1, 1).irecv(210, 215, 0, 3, 8);
    const RequestId second = t.thread(1, 1).irecv(216, 220, 0, 4, 8);
    t.thread(1, 1).waitall(230, 500, {first, second});
    t.rank(0).send(300, 310, 1, 3, 8);
    t.thread(0, 1).send(400, 410, 1, 4, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    // The call waited until the later send began: 400 - 230 = 170, one
    // late message (the other's 70 lies within it).
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Waitall", 1, 1) == Approx(170 * ns));
    CHECK(a.at("mpi_cls_count", kRegion + "/MPI_Waitall", 1, 1) == 1);
    CHECK(a.at("comms_recv", kRegion + "/MPI_Waitall", 1, 1) == 2);
}

TEST_CASE("OpenMP: a worker's wait passes the costs of the waits it caused on to the thread that delayed it",
          "[openmp]") {
    // Two ranks of two threads in one region (fork 200, join 600). Rank 0's
    // worker sends X (tag 1) in 400-410 to rank 1's worker, which received
    // it in 250-400: a Late Sender of 150. Rank 1's worker then computes
    // and sends Y (tag 2) in 500-510 to rank 0's master, which received it
    // in 400-520: a Late Sender of 100.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).send(400, 410, 1, 1, 8);
    t.thread(1, 1).recv(250, 400, 0, 1, 8).send(500, 510, 0, 2, 8);
    t.rank(0).recv(400, 520, 1, 2, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.total("mpi_latesender") == Approx(250 * ns));
    // Y: rank 0's master since MPI_Init did MPI_Init 100, main 100 and
    // region 200 (to 400); rank 1's worker its master's MPI_Init 100 and
    // main 100 before the fork, then region 50 + 100 and MPI_Recv 150, all
    // of it waiting for X. Nothing it did exceeds the master's: all of Y's
    // 100 passes to X, as its long-term cost, and all of Y is indirect.
    // X: rank 1's worker since MPI_Init did 100, 100 and region 50 (to
    // 250), rank 0's worker 100, 100 and region 200 (to 400): 150 more in
    // the region, which takes X's 150 short-term and Y's 100 long-term.
    CHECK(a.at("delay_latesender", kRegion, 0, 1) == Approx(150 * ns));
    CHECK(a.at("delay_latesender_longterm", kRegion, 0, 1) == Approx(100 * ns));
    CHECK(a.total("delay_latesender") == Approx(150 * ns));
    CHECK(a.total("delay_latesender_longterm") == Approx(100 * ns));
    CHECK(a.at("mpi_wait_indirect_latesender", kRegion + "/MPI_Recv", 0, 0) == Approx(100 * ns));
    CHECK(a.at("mpi_wait_direct_latesender", kRegion + "/MPI_Recv", 0, 0) == Approx(0).margin(1e-15));
    CHECK(a.at("mpi_wait_direct_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(150 * ns));
    // X made Y wait 100 of its 150.
    CHECK(a.at("mpi_wait_propagating_ls", kRegion + "/MPI_Recv", 1, 1) == Approx(100 * ns));
    CHECK(a.at("mpi_wait_terminal_ls", kRegion + "/MPI_Recv", 1, 1) == Approx(50 * ns));
    // The summary names the thread that caused it.
    CHECK(a.summary.find("    caused mostly by (delay costs over the run):\n"
                         "      main > !$omp parallel @a.c:1 on rank 0, OMP thread 1: 250 ns (150 ns direct, 100 ns "
                         "indirect)\n") != std::string::npos);
}

TEST_CASE("OpenMP: a worker that sent late after waiting at a barrier passes the costs to the thread it waited for",
          "[openmp]") {
    // Rank 0: the master computes in the region until 400 and enters a
    // barrier at 400 (leaving at 400); its worker enters it at 250 and
    // waits until 400, then sends (tag 1) in 400-410 to rank 1's worker,
    // which received it in 260-410: a Late Sender of 140.
    TraceBuilder t = two_ranks_in_a_region();
    const std::string barrier = "!$omp barrier @a.c:5";
    t.rank(0).enter(400, barrier).leave(400);
    t.thread(0, 1).enter(250, barrier).leave(400).send(400, 410, 1, 1, 8);
    t.thread(1, 1).recv(260, 410, 0, 1, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(140 * ns));
    CHECK(a.at("omp_ebarrier_wait", kRegion + "/" + barrier, 0, 1) == Approx(150 * ns));
    // Rank 1's worker since MPI_Init: its master's MPI_Init 100 and main
    // 100, then region 60 (to 260); rank 0's worker: the same 100 and 100,
    // region 50, and 150 waiting at the barrier (to 400). It did no more
    // than rank 1's worker: all 140 passes to its barrier wait, and on to
    // the master that came last, whose 150 more in the region since the
    // fork take it (and, short-term, the barrier wait itself).
    CHECK(a.at("delay_latesender_longterm", kRegion, 0, 0) == Approx(140 * ns));
    CHECK(a.total("delay_latesender_longterm") == Approx(140 * ns));
    CHECK(a.total("delay_latesender") == Approx(0).margin(1e-15));
    CHECK(a.at("delay_ompbarrier", kRegion, 0, 0) == Approx(150 * ns));
    CHECK(a.at("mpi_wait_indirect_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(140 * ns));
}

TEST_CASE("OpenMP: a worker that sent late because its master forked late passes the costs to the master",
          "[openmp]") {
    // Rank 0's master computes in `serial` 100-300 and forks at 300, rank
    // 1's at 200 (both: MPI_Init 0-100). Rank 0's worker sends right away
    // (310-320) to rank 1's worker, which received it in 250-330: a Late
    // Sender of 60. Both regions end at 600.
    TraceBuilder t(2);
    t.set_threads(2);
    const Ticks fork[] = {300, 200};
    for (int r = 0; r < 2; ++r) {
        t.rank(r).enter(0, "main").init(0, 100);
        if (r == 0) t.rank(r).enter(100, "serial").leave(300);
        t.rank(r).fork(fork[r], 2).team_begin(fork[r]).enter(fork[r], "!$omp parallel @a.c:1");
        t.thread(r, 1).team_begin(fork[r]).enter(fork[r], "!$omp parallel @a.c:1");
    }
    t.thread(0, 1).send(310, 320, 1, 1, 8);
    t.thread(1, 1).recv(250, 330, 0, 1, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(60 * ns));
    // Rank 1's worker since MPI_Init: its master's main 100 before the
    // fork, then region 50 (to 250). Rank 0's worker: its master's serial
    // 200 before the fork, then region 10 (to 310). The excess is the
    // master's serial phase, which takes all 60, on the master.
    CHECK(a.at("delay_latesender", "main/serial", 0, 0) == Approx(60 * ns));
    CHECK(a.total("delay_latesender") == Approx(60 * ns));
}

TEST_CASE("OpenMP: a worker's send that waited for a master's receive is a Late Receiver of that master",
          "[openmp]") {
    // Rank 0's worker enters MPI_Ssend at 250 and leaves at 320; rank 1's
    // master posts the receive at 300 (MPI_Recv 300-310): a Late Receiver
    // of 50.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).send(250, 320, 1, 4, 8, kWorld, "MPI_Ssend");
    t.rank(1).recv(300, 310, 0, 4, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latereceiver", kRegion + "/MPI_Ssend", 0, 1) == Approx(50 * ns));
    // Rank 1's master since MPI_Init: 100, 100 and region 100 (to 300);
    // rank 0's worker: its master's 100 and 100, then region 50 (to 250).
    CHECK(a.at("delay_latereceiver", kRegion, 1, 0) == Approx(50 * ns));
    CHECK(a.total("delay_latereceiver") == Approx(50 * ns));
    CHECK(a.at("mpi_wait_direct_latereceiver", kRegion + "/MPI_Ssend", 0, 1) == Approx(50 * ns));
}

TEST_CASE("OpenMP: a worker's message to its own rank's master pairs too", "[openmp]") {
    // One rank of two threads, one region forked at 100 and joined at 400:
    // the worker sends 8 bytes (tag 1) to its own rank in 300-310, the
    // master receives them in 250-320: it waited 300 - 250 = 50.
    TraceBuilder t(1);
    t.set_threads(2);
    t.rank(0).enter(0, "main").fork(100, 2).team_begin(100).enter(100, "!$omp parallel @a.c:1");
    t.rank(0).recv(250, 320, 0, 1, 8).leave(400).team_end(400).join(400).leave(500);
    t.thread(0, 1).team_begin(100).enter(100, "!$omp parallel @a.c:1").send(300, 310, 0, 1, 8);
    t.thread(0, 1).leave(400).team_end(400);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("mpi_latesender", "main/!$omp parallel @a.c:1/MPI_Recv", 0, 0) == Approx(50 * ns));
    CHECK(a.at("bytes_rcvd", "main/!$omp parallel @a.c:1/MPI_Recv", 0, 0) == 8);
    CHECK(a.at("bytes_sent", "main/!$omp parallel @a.c:1/MPI_Send", 0, 1) == 8);
    // The worker sent late: from the start (no other synchronization) the
    // master did main 100 and region 150 (to 250), the worker its master's
    // main 100 before the fork, then region 200 (to 300): 50 more.
    CHECK(a.at("delay_latesender", "main/!$omp parallel @a.c:1", 0, 1) == Approx(50 * ns));
    CHECK(a.total("delay_latesender") == Approx(50 * ns));
}

TEST_CASE("OpenMP: a stream of messages from two threads pairs in time order", "[openmp]") {
    // Rank 0 sends three messages of tag 7 to rank 1: its master 8 bytes in
    // 210-220, its worker 16 bytes in 300-310, its master 24 bytes in
    // 400-410. Rank 1 receives them in that order: its master in 205-225
    // and 250-320, its worker in 380-420. MPI matches them in order, so
    // the worker's message is the master's second receive, and the
    // master's second message the worker's receive: only the first pairs
    // master with master (the masters alone would pair 24 bytes with 16).
    TraceBuilder t = two_ranks_in_a_region();
    t.rank(0).send(210, 220, 1, 7, 8).send(400, 410, 1, 7, 24);
    t.thread(0, 1).send(300, 310, 1, 7, 16);
    t.rank(1).recv(205, 225, 0, 7, 8).recv(250, 320, 0, 7, 16);
    t.thread(1, 1).recv(380, 420, 0, 7, 24);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    // Rank 1's master waits 210 - 205 = 5 for the first, 300 - 250 = 50
    // for the worker's; its worker 400 - 380 = 20 for the master's second.
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 0) == Approx(55 * ns));
    CHECK(a.at("mpi_cls_count", kRegion + "/MPI_Recv", 1, 0) == 2);
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 1) == Approx(20 * ns));
    CHECK(a.at("bytes_rcvd", kRegion + "/MPI_Recv", 1, 0) == 24);
    CHECK(a.at("bytes_rcvd", kRegion + "/MPI_Recv", 1, 1) == 24);
    CHECK(a.at("bytes_sent", kRegion + "/MPI_Send", 0, 0) == 32);
    CHECK(a.at("bytes_sent", kRegion + "/MPI_Send", 0, 1) == 16);
    // The profile per communicator counts every thread's calls: 3 sends of
    // 10 ns each (48 bytes), 3 receives of 20, 70 and 40 ns that waited
    // 5, 50 and 20.
    INFO(a.communicators_csv);
    check_row(a.operation_row(kWorldColumns, "MPI_Send"), {3, 3, 30, 0, 48, 0});
    check_row(a.operation_row(kWorldColumns, "MPI_Recv"), {3, 3, 130, 75, 0, 48});
    // The matrix: three messages of 48 bytes from rank 0 to rank 1.
    CHECK(a.communication_json.find("\"ranks\":2,\n\"rank_matrix\":[\n  [0,1,3,48,0]]") != std::string::npos);
}

namespace {

// Two ranks of two threads in one region (forked at 200, joined at 600,
// after MPI_Init 0-100), in which `inside` has rank 1's master wait for
// rank 0's worker until 500 in a call that ends at 520. Rank 0 finalizes
// 650-710, rank 1 700-710: the critical path ends on rank 1.
template <typename Inside>
TraceBuilder master_waits_for_a_worker(Inside inside) {
    TraceBuilder t = two_ranks_in_a_region();
    inside(t);
    const Ticks finalize[] = {650, 700};
    for (int r = 0; r < 2; ++r) {
        t.rank(r).leave(600).team_end(600).join(600).finalize(finalize[r], 710).leave(710);
        t.thread(r, 1).leave(600).team_end(600);
    }
    return t;
}

// The critical path of master_waits_for_a_worker() on rank 1, whose
// master waited in `call`: from its entry into MPI_Finalize (700) back,
// main 600-700, the region 520-600 and the call after its wait ended
// (500-520); and on rank 0's master, main 100-200 and MPI_Init 0-100: the
// path is back there at the fork. Rank 1 holds none of its region before.
void check_path_around_the_worker(const Analysis& a, const std::string& call) {
    CHECK(a.at("critical_path", "main", 1, 0) == Approx(100 * ns));
    CHECK(a.at("critical_path", kRegion, 1, 0) == Approx(80 * ns));
    CHECK(a.at("critical_path", call, 1, 0) == Approx(20 * ns));
    CHECK(a.at("critical_path", "main", 0, 0) == Approx(100 * ns));
    CHECK(a.at("critical_path", "main/MPI_Init", 0, 0) == Approx(100 * ns));
    CHECK(a.total("critical_path") == Approx(700 * ns));
}

}  // namespace

TEST_CASE("OpenMP: the critical path follows a master's Late Sender wait to the worker that sent late", "[openmp]") {
    // Rank 0's worker works 200-500 and sends 500-510; rank 1's master
    // receives 300-520. From the send the path runs back on the worker to
    // the fork: its work 200-500.
    const Analysis a = analyse(master_waits_for_a_worker([](TraceBuilder& t) {
        t.thread(0, 1).region(200, 500, "work").send(500, 510, 1, 7, 8);
        t.rank(1).recv(300, 520, 0, 7, 8);
    }));
    CHECK(a.at("mpi_latesender", kRegion + "/MPI_Recv", 1, 0) == Approx(200 * ns));
    check_path_around_the_worker(a, kRegion + "/MPI_Recv");
    CHECK(a.at("critical_path", kWork, 0, 1) == Approx(300 * ns));
    CHECK(a.at("critical_path", kRegion, 0, 0) == 0);
}

TEST_CASE("OpenMP: the critical path follows a master's wait in a worker's collective to the worker that came last",
          "[openmp]") {
    // As above, with MPI_Barrier: the worker's 500-510, the master's 300-520.
    const Analysis a = analyse(master_waits_for_a_worker([](TraceBuilder& t) {
        t.thread(0, 1).region(200, 500, "work").barrier(500, 510);
        t.rank(1).barrier(300, 520);
    }));
    CHECK(a.at("mpi_barrier_wait", kRegion + "/MPI_Barrier", 1, 0) == Approx(200 * ns));
    check_path_around_the_worker(a, kRegion + "/MPI_Barrier");
    CHECK(a.at("critical_path", kWork, 0, 1) == Approx(300 * ns));
    CHECK(a.at("critical_path", kRegion, 0, 0) == 0);
}

TEST_CASE("OpenMP: the critical path from a worker that sent late goes back over the region's barriers", "[openmp]") {
    // Rank 0's threads meet at a barrier first: the master works 200-400
    // and comes last to it, 400-410; the worker works 200-300, waits in it
    // 300-400, then works 410-500 and sends 500-510. From the send the
    // path runs back on the worker to the barrier's last arrival (its work
    // 410-500, its barrier 400-410), then on the master that arrived last:
    // its work 200-400.
    const std::string barrier = kRegion + "/!$omp barrier @a.c:5";
    const Analysis a = analyse(master_waits_for_a_worker([](TraceBuilder& t) {
        t.rank(0).region(200, 400, "work").region(400, 410, "!$omp barrier @a.c:5");
        t.thread(0, 1).region(200, 300, "work").region(300, 410, "!$omp barrier @a.c:5");
        t.thread(0, 1).region(410, 500, "work").send(500, 510, 1, 7, 8);
        t.rank(1).recv(300, 520, 0, 7, 8);
    }));
    check_path_around_the_worker(a, kRegion + "/MPI_Recv");
    CHECK(a.at("critical_path", kWork, 0, 1) == Approx(90 * ns));
    CHECK(a.at("critical_path", barrier, 0, 1) == Approx(10 * ns));
    CHECK(a.at("critical_path", kWork, 0, 0) == Approx(200 * ns));
    CHECK(a.at("critical_path", barrier, 0, 0) == 0);
}

TEST_CASE("OpenMP: a collective a worker made is measured apart on every member, its communicator's others stay",
          "[openmp]") {
    // Two ranks of two threads; in the region (200-600) rank 0's worker
    // calls MPI_Barrier 300-400, rank 1's master 250-450: the second
    // collective of MPI_COMM_WORLD on both ranks, after MPI_Init. Then both
    // workers reduce 8 bytes with MPI_Allreduce, rank 0's in 450-500, rank
    // 1's in 470-520. After the region (joined at 600) both masters call
    // MPI_Barrier, rank 0 in 620-690, rank 1 in 650-690, and finalize in
    // 700-710.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).barrier(300, 400).allreduce(450, 500, 8);
    t.rank(1).barrier(250, 450);
    t.thread(1, 1).allreduce(470, 520, 8);
    const Ticks barrier_entry[] = {620, 650};
    for (int r = 0; r < 2; ++r) {
        t.rank(r).leave(600).team_end(600).join(600).barrier(barrier_entry[r], 690).finalize(700, 710).leave(710);
        t.thread(r, 1).leave(600).team_end(600);
    }
    const Analysis a = analyse(t);
    // MPI_COLLECTIVE_BEGIN and _END of each.
    CHECK(a.warnings.find("rank 0: 4 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    CHECK(a.warnings.find("rank 1: 2 MPI collective records on 1 OpenMP worker thread(s) are not replayed") !=
          std::string::npos);
    CHECK(a.warnings.find("collective operations on MPI_COMM_WORLD") == std::string::npos);
    CHECK(a.at("time", kRegion + "/MPI_Barrier", 0, 1) == Approx(100 * ns));
    CHECK(a.at("syncs_coll", kRegion + "/MPI_Barrier", 0, 1) == 1);
    CHECK(a.at("syncs_coll", kRegion + "/MPI_Barrier", 1, 0) == 1);
    // The barrier in the region: both were inside from 300 (the worker's
    // arrival, the last) to 400 (its end, the first). Rank 1's master
    // waited 250-300 and completed 400-450 after the worker had left.
    CHECK(a.at("mpi_barrier_wait", kRegion + "/MPI_Barrier", 1, 0) == Approx(50 * ns));
    CHECK(a.at("mpi_barrier_completion", kRegion + "/MPI_Barrier", 1, 0) == Approx(50 * ns));
    CHECK(a.at("mpi_barrier_wait", kRegion + "/MPI_Barrier", 0, 1) == 0);
    // The reduction: rank 0's worker waited 450-470 for rank 1's; rank 1's
    // completed 500-520 after rank 0's had left.
    CHECK(a.at("mpi_wait_nxn", kRegion + "/MPI_Allreduce", 0, 1) == Approx(20 * ns));
    CHECK(a.at("mpi_nxn_completion", kRegion + "/MPI_Allreduce", 1, 1) == Approx(20 * ns));
    CHECK(a.at("mpi_wait_nxn", kRegion + "/MPI_Allreduce", 1, 1) == 0);
    // The other collectives of MPI_COMM_WORLD still pair: at the barrier
    // after the region rank 0 waits for rank 1 from 620 to 650.
    CHECK(a.at("mpi_barrier_wait", "main/MPI_Barrier", 0, 0) == Approx(30 * ns));
    // The profile per communicator: the barriers in the region are 2 calls
    // of 100 and 200 ns (one operation, rank 0's), 50 of it waiting.
    check_row(a.operation_row(kWorldColumns, "MPI_Barrier"), {2, 4, 100 + 200 + 70 + 40, 50 + 30, 0, 0});
    // Delay costs, between the threads that took the members' parts. Each
    // interval runs back to MPI_Init (its call all synchronization, 100-200
    // in main on every thread's master), the workers' on their masters
    // before the fork at 200.
    //  - The barrier: rank 1's master waited 50 for rank 0's worker. Since
    //    the fork, rank 0's worker spent 100 in the region (200-300), rank
    //    1's master 50 (200-250): the 50 are the worker's, in the region.
    //  - The reduction: rank 0's worker waited 20 for rank 1's. Rank 0's
    //    worker spent 150 in the region and 100 in its barrier (which
    //    synchronized it with rank 1's master only), rank 1's worker 270
    //    in the region (200-470): all 20 are rank 1's worker's.
    CHECK(a.at("delay_barrier", kRegion, 0, 1) == Approx(50 * ns));
    CHECK(a.at("delay_n2n", kRegion, 1, 1) == Approx(20 * ns));
    //  - The masters' barrier after the region: rank 0's master waited 30
    //    for rank 1's. Since MPI_Init rank 1's master spent 150 in main,
    //    200 in the region and 200 in the worker's barrier, 50 of which it
    //    waited; rank 0's master 120 in main and 400 in the region. Excess
    //    30 + 150 = 180 against 50 of waiting: 30 * 180 / 230 of the wait
    //    are the delay's, 30 * 50 / 230 pass on to the worker's barrier,
    //    whose costs are rank 0's worker's.
    CHECK(a.at("delay_barrier_longterm", kRegion, 0, 1) == Approx(30.0 * 50 / 230 * ns));
    // Every wait's costs are somebody's: short- and long-term, they add up
    // to the waiting.
    CHECK(a.total("delay_barrier") == Approx((50 + 30.0 * 180 / 230) * ns));
    CHECK(a.total("delay_barrier") + a.total("delay_barrier_longterm") == Approx(a.total("mpi_barrier_wait")));
    CHECK(a.total("mpi_barrier_wait") == Approx(80 * ns));
    CHECK(a.total("delay_n2n") + a.total("delay_n2n_longterm") == Approx(20 * ns));
}

TEST_CASE("OpenMP: a worker whose team began late delayed its collective by its start", "[openmp]") {
    // Two ranks of two threads in a region forked at 200; rank 0's worker
    // begins its part only at 260 and calls MPI_Barrier 300-400, rank 1's
    // master 250-450, waiting 50 for it. Since MPI_Init (100-200 in main
    // on both masters) rank 0's worker spent 100 in the region, 60 of them
    // before its team began, which count there as in its profile; rank 1's
    // master 50. The 50 are the worker's, in the region.
    TraceBuilder t(2);
    t.set_threads(2);
    const Ticks team_begin[] = {260, 200};
    for (int r = 0; r < 2; ++r) {
        t.rank(r).enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, "!$omp parallel @a.c:1");
        t.thread(r, 1).team_begin(team_begin[r]).enter(team_begin[r], "!$omp parallel @a.c:1");
    }
    t.thread(0, 1).barrier(300, 400);
    t.rank(1).barrier(250, 450);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.at("mpi_barrier_wait", kRegion + "/MPI_Barrier", 1, 0) == Approx(50 * ns));
    CHECK(a.at("delay_barrier", kRegion, 0, 1) == Approx(50 * ns));
    CHECK(a.total("delay_barrier") == Approx(50 * ns));
}

TEST_CASE("OpenMP: a worker's collective whose delay no work explains keeps its costs at the call", "[openmp]") {
    // Two ranks of two threads, two regions. In the first (forked at 200,
    // joined at 300) rank 0's master sends to rank 1's, which waits in
    // MPI_Recv 220-250 (the send 250-260). The second is forked at 430 on
    // rank 0, at 400 on rank 1: rank 0's worker calls MPI_Barrier 450-460,
    // rank 1's master 420-470, waiting 30 for it.
    // Rank 0's worker's interval with rank 1's master goes back to the
    // send (on its master before the fork): the region 260-300 (40), main
    // 300-430 (130), the second region 430-450 (20). Rank 1's master's
    // with rank 0's worker goes back to MPI_Init, since the receive tied it
    // to rank 0's master alone inside a region: main 100-200 and 300-400
    // (200), the first region 60, its receive after the wait 10, the second
    // region 20. The worker did no more than the master anywhere: no delay
    // explains the 30, which stay with the worker's barrier call.
    const std::string r1 = "!$omp parallel @a.c:1", r2 = "!$omp parallel @a.c:20";
    TraceBuilder t(2);
    t.set_threads(2);
    const Ticks fork2[] = {430, 400};
    for (int r = 0; r < 2; ++r) {
        t.rank(r).enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, r1);
        t.thread(r, 1).team_begin(200).enter(200, r1).leave(300).team_end(300);
    }
    t.rank(0).send(250, 260, 1, 7, 8);
    t.rank(1).recv(220, 260, 0, 7, 8);
    for (int r = 0; r < 2; ++r) {
        t.rank(r).leave(300).team_end(300).join(300).fork(fork2[r], 2).team_begin(fork2[r]).enter(fork2[r], r2);
        t.thread(r, 1).team_begin(fork2[r]).enter(fork2[r], r2);
    }
    t.thread(0, 1).barrier(450, 460);
    t.rank(1).barrier(420, 470);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.at("mpi_barrier_wait", "main/" + r2 + "/MPI_Barrier", 1, 0) == Approx(30 * ns));
    CHECK(a.at("delay_barrier", "main/" + r2 + "/MPI_Barrier", 0, 1) == Approx(30 * ns));
    CHECK(a.total("delay_barrier") == Approx(30 * ns));
}

TEST_CASE("OpenMP: a worker's collective whose members' records disagree is left out with a warning", "[openmp]") {
    // The second collective of MPI_COMM_WORLD is rank 0's worker's
    // MPI_Barrier 300-400 but rank 1's master's MPI_Allreduce 250-450 (a
    // damaged trace): the two met at different operations, so neither
    // waited for the other, and every member says so.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).barrier(300, 400);
    t.rank(1).allreduce(250, 450, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    for (int rank = 0; rank < 2; ++rank)
        CHECK(a.warnings.find("rank " + std::to_string(rank) +
                              ": 1 MPI collective operations of OpenMP worker threads name different operations or "
                              "roots on their members; they are left out of the wait states and the delay costs") !=
              std::string::npos);
    CHECK(a.total("mpi_barrier_wait") == 0);
    CHECK(a.total("mpi_wait_nxn") == 0);
    CHECK(a.total("delay_barrier") + a.total("delay_n2n") == 0);
    // Their calls still count.
    CHECK(a.at("time", kRegion + "/MPI_Barrier", 0, 1) == Approx(100 * ns));
    CHECK(a.at("time", kRegion + "/MPI_Allreduce", 1, 0) == Approx(200 * ns));
}

TEST_CASE("OpenMP: rooted and prefix collectives on worker threads wait for the root and the lower ranks",
          "[openmp]") {
    // Two ranks of two threads, in the region 200-600 (then both finalize):
    //  - MPI_Bcast from rank 0: rank 0's worker 300-320, rank 1's 250-330;
    //  - MPI_Reduce to rank 1: rank 0's worker 400-410, rank 1's 350-420;
    //  - MPI_Scan: rank 0's worker 450-460, rank 1's master 430-470.
    // Rank 1 waits for the root of the broadcast from 250 to 300 (Late
    // Broadcast 50), as the root of the reduction for rank 0 from 350 to
    // 400 (Early Reduce 50), and in the scan for the lower rank 0 from 430
    // to 450 (Early Scan 20). Rank 0 waits for nobody.
    TraceBuilder t = two_ranks_in_a_region();
    t.thread(0, 1).bcast(300, 320, 0, 8).reduce(400, 410, 1, 8).scan(450, 460, 8);
    t.thread(1, 1).bcast(250, 330, 0, 8).reduce(350, 420, 1, 8);
    t.rank(1).scan(430, 470, 8);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.at("mpi_latebroadcast", kRegion + "/MPI_Bcast", 1, 1) == Approx(50 * ns));
    CHECK(a.at("mpi_earlyreduce", kRegion + "/MPI_Reduce", 1, 1) == Approx(50 * ns));
    CHECK(a.at("mpi_earlyscan", kRegion + "/MPI_Scan", 1, 0) == Approx(20 * ns));
    for (const char* metric : {"mpi_latebroadcast", "mpi_earlyreduce", "mpi_earlyscan"}) {
        INFO(metric);
        CHECK(a.at(metric, kRegion + "/MPI_Bcast", 0, 1) + a.at(metric, kRegion + "/MPI_Reduce", 0, 1) +
                  a.at(metric, kRegion + "/MPI_Scan", 0, 1) ==
              0);
    }
    // Delay costs, each interval back to MPI_Init (100-200 in main on
    // both) and, the workers', from the fork at 200 on in the region:
    //  - the broadcast: rank 1's worker spent 50 (200-250) in the region,
    //    the root, rank 0's worker, 100 (200-300): the 50 it waited are the
    //    root's, in the region;
    //  - the reduction: the two workers last synchronized at the broadcast,
    //    whose calls were all synchronization (the root's) or waiting and
    //    nothing after it (rank 1's). Since, the root (rank 1's worker)
    //    spent 20 in the region (330-350), rank 0's worker 80 (320-400):
    //    the 50 are rank 0's worker's.
    //  - a scan synchronizes nobody: no delay costs, as on the masters.
    CHECK(a.at("delay_12n", kRegion, 0, 1) == Approx(50 * ns));
    CHECK(a.total("delay_12n") == Approx(50 * ns));
    CHECK(a.at("delay_n21", kRegion, 0, 1) == Approx(50 * ns));
    CHECK(a.total("delay_n21") == Approx(50 * ns));
}

TEST_CASE("OpenMP: an n-to-n collective on a worker whose members did not all meet waits for the last sender",
          "[openmp]") {
    // Three ranks in the region; one MPI_Alltoall on MPI_COMM_WORLD:
    //  - rank 0's master sends only, 300-305;
    //  - rank 1's worker receives only, 250-320;
    //  - rank 2's master neither sends nor receives, 400-410.
    // Rank 0 left before rank 2 came: the members did not all meet. The
    // last (only) sender is rank 0, at 300; rank 1's worker receives and
    // began before it: it waited 250-300 (Wait at N x N 50) and completed
    // after the first end of the two that synchronized (305): 15. Rank 2
    // began after rank 0 had sent, rank 0 waited for no one.
    TraceBuilder t = two_ranks_in_a_region(3);
    t.rank(0).collective(300, 305, "MPI_Alltoall", kWorld, -1, 8, 0);
    t.thread(1, 1).collective(250, 320, "MPI_Alltoall", kWorld, -1, 0, 8);
    t.rank(2).collective(400, 410, "MPI_Alltoall", kWorld, -1, 0, 0);
    end_the_region(t);
    const Analysis a = analyse(t);
    CHECK(a.at("mpi_wait_nxn", kRegion + "/MPI_Alltoall", 1, 1) == Approx(50 * ns));
    CHECK(a.at("mpi_nxn_completion", kRegion + "/MPI_Alltoall", 1, 1) == Approx(15 * ns));
    for (const int rank : {0, 2}) {
        INFO("rank " << rank);
        CHECK(a.at("mpi_wait_nxn", kRegion + "/MPI_Alltoall", rank, 0) == 0);
        CHECK(a.at("mpi_nxn_completion", kRegion + "/MPI_Alltoall", rank, 0) == 0);
    }
    // Delay costs: rank 1's worker waited for rank 0's master, the last
    // sender, with which it last synchronized at MPI_Init (its call all
    // synchronization): since then, the worker's part on its master before
    // the fork at 200 included, rank 0's master spent 100 in main and 100
    // in the region (200-300), rank 1's worker 100 in main and 50 in the
    // region (200-250). The 50 are rank 0's master's, in the region.
    CHECK(a.at("delay_n2n", kRegion, 0, 0) == Approx(50 * ns));
    CHECK(a.total("delay_n2n") + a.total("delay_n2n_longterm") == Approx(50 * ns));
}

namespace {

// One rank of two threads with MPI_Init and MPI_Finalize. The master: main
// 0-1000, MPI_Init 0-100, forks at 200, works 200-400, is in the implicit
// barrier 400-700 and joins at 700, then works serially 700-900 and
// finalizes 900-950. The worker works 200-650 and is in the barrier
// 650-700: it arrives last, the master waits 400-650.
TraceBuilder one_region_with_mpi() {
    TraceBuilder t(1);
    t.set_threads(2);
    auto& master = t.rank(0);
    master.enter(0, "main").init(0, 100);
    master.fork(200, 2).team_begin(200).enter(200, "!$omp parallel @a.c:1");
    master.region(200, 400, "work").region(400, 700, "!$omp implicit barrier @a.c:9");
    master.leave(700).team_end(700).join(700).region(700, 900, "serial").finalize(900, 950).leave(1000);
    auto& worker = t.thread(0, 1);
    worker.team_begin(200).enter(200, "!$omp parallel @a.c:1");
    worker.region(200, 650, "work").region(650, 700, "!$omp implicit barrier @a.c:9");
    worker.leave(700).team_end(700);
    return t;
}

}  // namespace

TEST_CASE("OpenMP summary: a program without MPI has no sections about communication", "[openmp][summary]") {
    // One rank of two threads and no MPI call: one_region() without MPI.
    const Analysis openmp = analyse(one_region());
    CHECK(openmp.summary.find("OpenMP threads:") != std::string::npos);
    CHECK(openmp.summary.find("What if") == std::string::npos);
    CHECK(openmp.summary.find("Communicators taking most time") == std::string::npos);
    CHECK(openmp.summary.find("Placement") == std::string::npos);
    // With MPI_Init and MPI_Finalize they are there.
    const Analysis hybrid = analyse(one_region_with_mpi());
    CHECK(hybrid.summary.find("What if: --graph") != std::string::npos);
    CHECK(hybrid.summary.find("Communicators taking most time") != std::string::npos);
    CHECK(hybrid.summary.find("Placement") != std::string::npos);
}

TEST_CASE("OpenMP critical path: through the barrier to the last thread, back to the master at the fork",
          "[openmp][critical]") {
    const Analysis a = analyse(one_region_with_mpi());
    CHECK(a.warnings == "none");
    // Backward from the entry into MPI_Finalize (900) to that into MPI_Init
    // (0): the master's serial work 700-900; the barrier after the last
    // arrival, 650-700, on the master, which waited there; the worker's
    // work 200-650; at the fork the master again: main 100-200, MPI_Init.
    CHECK(a.at("critical_path", "main/serial", 0, 0) == Approx(200 * ns));
    CHECK(a.at("critical_path", kBarrier, 0, 0) == Approx(50 * ns));
    CHECK(a.at("critical_path", kWork, 0, 0) == 0);
    CHECK(a.at("critical_path", kWork, 0, 1) == Approx(450 * ns));
    CHECK(a.at("critical_path", "main", 0, 0) == Approx(100 * ns));
    CHECK(a.at("critical_path", "main/MPI_Init", 0, 0) == Approx(100 * ns));
    CHECK(a.total("critical_path") == Approx(900 * ns));
    // Activities: each thread's time without waits, up to the call path's
    // time on the path G (main 100, MPI_Init 100, barrier 50, work 450,
    // serial 200). The master: main 150 (1000 - 100 - 500 - 200 - 50), of
    // which 100; MPI_Init 100; work 200; the barrier 300 - 250 of waiting
    // = 50; serial 200; MPI_Finalize 50 is off the path. The worker: work
    // 450; its barrier after the last arrival is the team's end, no work.
    CHECK(a.at("critical_path_activities", "main", 0, 0) == Approx(100 * ns));
    CHECK(a.at("non_critical_path_activities", "main", 0, 0) == Approx(50 * ns));
    CHECK(a.at("critical_path_activities", kWork, 0, 0) == Approx(200 * ns));
    CHECK(a.at("critical_path_activities", kBarrier, 0, 0) == Approx(50 * ns));
    CHECK(a.at("non_critical_path_activities", "main/MPI_Finalize", 0, 0) == Approx(50 * ns));
    CHECK(a.at("critical_path_activities", kWork, 0, 1) == Approx(450 * ns));
    CHECK(a.at("critical_path_activities", kBarrier, 0, 1) == 0);
    CHECK(a.total("critical_path_activities") == Approx(1100 * ns));
    CHECK(a.total("non_critical_path_activities") == Approx(100 * ns));
    // Imbalance impact. The master's headroom is 900 - 750 (its own time)
    // = 150, spread over its one excess, work (450 - 200): 150 at work.
    // The worker's is 900 - 450, over main 100, MPI_Init 100, the barrier
    // 50 and serial 200 (it never ran them: inter-partition). Each cost
    // goes to the threads carrying its call path on the path: work's to
    // the worker, the others to the master.
    CHECK(a.at("critical_imbalance_impact", kWork, 0, 1) == Approx(150 * ns));
    CHECK(a.at("inter_partition_imbalance", kWork, 0, 1) == 0);
    CHECK(a.at("critical_imbalance_impact", "main/serial", 0, 0) == Approx(200 * ns));
    CHECK(a.at("inter_partition_imbalance", "main/serial", 0, 0) == Approx(200 * ns));
    CHECK(a.at("critical_imbalance_impact", kBarrier, 0, 0) == Approx(50 * ns));
    CHECK(a.at("critical_imbalance_impact", "main", 0, 0) == Approx(100 * ns));
    CHECK(a.at("critical_imbalance_impact", "main/MPI_Init", 0, 0) == Approx(100 * ns));
    CHECK(a.total("critical_imbalance_impact") == Approx(600 * ns));
    CHECK(a.total("inter_partition_imbalance") == Approx(450 * ns));
}

TEST_CASE("OpenMP critical path: threads arriving last together carry one path", "[openmp][critical]") {
    // As one_region_with_mpi(), with two workers that both work 200-650 and
    // enter the barrier at 650 together. The path goes on the lower
    // numbered one only: its length stays the run's 900.
    TraceBuilder t(1);
    t.set_threads(3);
    auto& master = t.rank(0);
    master.enter(0, "main").init(0, 100);
    master.fork(200, 3).team_begin(200).enter(200, "!$omp parallel @a.c:1");
    master.region(200, 400, "work").region(400, 700, "!$omp implicit barrier @a.c:9");
    master.leave(700).team_end(700).join(700).region(700, 900, "serial").finalize(900, 950).leave(1000);
    for (int w = 1; w <= 2; ++w) {
        auto& worker = t.thread(0, w);
        worker.team_begin(200).enter(200, "!$omp parallel @a.c:1");
        worker.region(200, 650, "work").region(650, 700, "!$omp implicit barrier @a.c:9");
        worker.leave(700).team_end(700);
    }
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    CHECK(a.at("critical_path", kWork, 0, 1) == Approx(450 * ns));
    CHECK(a.at("critical_path", kWork, 0, 2) == 0);
    CHECK(a.total("critical_path") == Approx(900 * ns));
}

TEST_CASE("OpenMP critical path: seed 001's Figure 13 over threads and ranks", "[openmp][critical][figure13]") {
    const std::string r1 = "!$omp parallel @f.c:10", r2 = "!$omp parallel @f.c:30";
    const Analysis a = analyse(figure13());
    CHECK(a.warnings == "none");
    const std::string compute = "main/" + r1 + "/compute", update = "main/" + r2 + "/update";
    // Backward from rank 1's entry into MPI_Finalize (4310): its main
    // 4200-4310; region 2, where its master arrived last at the barrier:
    // update 3200-4200 on the master; main 3100-3200; the receive after the
    // Late Sender's wait, 3000-3100; then rank 0 from its send at 3000: its
    // master waited in region 1's barrier until 3000, so the worker, which
    // arrived at 3000, carries compute 1000-3000; at the fork rank 0's
    // master: main 100-1000, MPI_Init 0-100. 4310 in all.
    CHECK(a.at("critical_path", "main", 1, 0) == Approx(210 * ns));
    CHECK(a.at("critical_path", update, 1, 0) == Approx(1000 * ns));
    CHECK(a.at("critical_path", "main/MPI_Recv", 1, 0) == Approx(100 * ns));
    CHECK(a.at("critical_path", compute, 0, 1) == Approx(2000 * ns));
    CHECK(a.at("critical_path", compute, 0, 0) == 0);
    CHECK(a.at("critical_path", "main", 0, 0) == Approx(900 * ns));
    CHECK(a.at("critical_path", "main/MPI_Init", 0, 0) == Approx(100 * ns));
    CHECK(a.total("critical_path") == Approx(4310 * ns));
    // Activities, G: main 1110, MPI_Init 200 (100 on the path), compute
    // 2000, MPI_Recv 100, update 1000. Rank 0's master: main 1100, MPI_Init
    // 100, compute 1000, update 1000 (3200); its send 100 is off the path.
    // Its worker: compute 2000, update 990 (2990). Rank 1's master: main
    // 1110, MPI_Init 100, compute 1000, the receive 1100 - 1000 = 100,
    // update 1000 (3310), MPI_Finalize 10 off the path; its worker compute
    // 1000, update 990 (1990). 11490 in all.
    CHECK(a.at("critical_path_activities", "main", 0, 0) == Approx(1100 * ns));
    CHECK(a.at("critical_path_activities", compute, 0, 1) == Approx(2000 * ns));
    CHECK(a.at("critical_path_activities", update, 0, 1) == Approx(990 * ns));
    CHECK(a.at("critical_path_activities", compute, 1, 1) == Approx(1000 * ns));
    CHECK(a.at("non_critical_path_activities", "main/MPI_Send", 0, 0) == Approx(100 * ns));
    CHECK(a.total("critical_path_activities") == Approx(11490 * ns));
    // Imbalance costs per thread, headroom h = 4310 - its own time over its
    // excesses δ = max(G - own, 0):
    //   rank 0 master  h 1010 over main 10, compute 1000, MPI_Recv 100
    //                  (never ran it): scaled by 1010/1110
    //   rank 0 worker  h 1320 over main 1110, MPI_Init 100, MPI_Recv 100,
    //                  update 10: as they are
    //   rank 1 master  h 990 over compute 1000: 990
    //   rank 1 worker  h 2320 over main 1110, MPI_Init 100, compute 1000,
    //                  MPI_Recv 100, update 10: as they are
    // Summed: main 2220 + 10·1010/1110, MPI_Init 200, compute 1000·1010/1110
    // + 1990, MPI_Recv 200 + 100·1010/1110, update 20; 5640 in all. Each
    // goes to the threads carrying the call path on the path: compute to
    // rank 0's worker, main 900:210 to the masters of ranks 0 and 1.
    const double s = 1010.0 / 1110;
    const double main_costs = 2220 + 10 * s;
    CHECK(a.at("critical_imbalance_impact", compute, 0, 1) == Approx((1000 * s + 1990) * ns));
    CHECK(a.at("critical_imbalance_impact", "main", 0, 0) == Approx(main_costs * 900 / 1110 * ns));
    CHECK(a.at("critical_imbalance_impact", "main", 1, 0) == Approx(main_costs * 210 / 1110 * ns));
    CHECK(a.at("critical_imbalance_impact", "main/MPI_Init", 0, 0) == Approx(200 * ns));
    CHECK(a.at("critical_imbalance_impact", "main/MPI_Recv", 1, 0) == Approx((200 + 100 * s) * ns));
    CHECK(a.at("critical_imbalance_impact", update, 1, 0) == Approx(20 * ns));
    CHECK(a.total("critical_imbalance_impact") == Approx(5640 * ns));
    // Inter-partition: the costs on call paths a thread never ran, the
    // workers' main, MPI_Init and MPI_Recv and rank 0 master's MPI_Recv.
    // (Scalasca books none: rank 1's master ran every call path of the
    // path, and its 0/0 drops the metric; its own headroom would give rank
    // 0's master no share at MPI_Recv either, since that master's time
    // there and in MPI_Send fills the path's length.)
    CHECK(a.at("inter_partition_imbalance", "main", 0, 0) == Approx(2220.0 * 900 / 1110 * ns));
    CHECK(a.at("inter_partition_imbalance", "main/MPI_Recv", 1, 0) == Approx((200 + 100 * s) * ns));
    CHECK(a.total("inter_partition_imbalance") == Approx((2220 + 200 + 200 + 100 * s) * ns));
}

TEST_CASE("OpenMP critical path: a master's MPI wait on the workers' stretch is not on the path",
          "[openmp][critical]") {
    // Two ranks of two threads. Rank 0's master receives 200-300 inside the
    // region (rank 1 sends at 250: a Late Sender of 50), then waits in the
    // barrier 300-650 for its worker, which works 200-650; join at 700,
    // MPI_Finalize at 800. Rank 1's team ends at 300; its MPI_Finalize
    // begins at 700, before rank 0's.
    TraceBuilder t(2);
    t.set_threads(2);
    const std::string r = "!$omp parallel @m.c:1", b = "!$omp implicit barrier @m.c:9";
    auto& master0 = t.rank(0);
    master0.enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, r).recv(200, 300, 1, 0, 8);
    master0.region(300, 700, b).leave(700).team_end(700).join(700).finalize(800, 810).leave(810);
    t.thread(0, 1).team_begin(200).enter(200, r).region(200, 650, "work").region(650, 700, b).leave(700).team_end(700);
    auto& master1 = t.rank(1);
    master1.enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, r).region(200, 250, "work");
    master1.send(250, 260, 0, 0, 8).region(260, 300, b).leave(300).team_end(300).join(300);
    master1.finalize(700, 810).leave(810);
    t.thread(1, 1).team_begin(200).enter(200, r).region(200, 300, "work").region(300, 300, b).leave(300).team_end(300);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    // Backward from rank 0's entry into MPI_Finalize (800): main 700-800,
    // the barrier 650-700 on the master, the worker's work 200-650 (the
    // master's receive lies beside it: the path never reaches rank 1), at
    // the fork the master: main 100-200, MPI_Init 0-100.
    CHECK(a.at("critical_path", "main", 0, 0) == Approx(200 * ns));
    CHECK(a.at("critical_path", "main/" + r + "/" + b, 0, 0) == Approx(50 * ns));
    CHECK(a.at("critical_path", "main/" + r + "/work", 0, 1) == Approx(450 * ns));
    CHECK(a.at("critical_path", "main/" + r + "/MPI_Recv", 0, 0) == 0);
    CHECK(a.at("critical_path", "main/MPI_Init", 0, 0) == Approx(100 * ns));
    CHECK(a.total("critical_path") == Approx(800 * ns));
}

TEST_CASE("OpenMP: a barrier wait that a master's MPI wait prolonged goes back to the rank it waited for",
          "[openmp][delay]") {
    // Two ranks of two threads; each forks at 200 after MPI_Init (0-100).
    //   rank 0 master: work 200-250 | MPI_Recv 250-400 (rank 1 sends at
    //                  350: a Late Sender of 100) | barrier 400-500
    //   rank 0 worker: work 200-300 | barrier 300-500 (waits 100)
    //   rank 1 master: work 200-350 | MPI_Send 350-360 | barrier 360-400
    //   rank 1 worker: work 200-380 | barrier 380-400
    // Both join at their barrier's end and enter MPI_Finalize at 600.
    // Hand-derived values (seed 001, §7):
    //  - Rank 0's worker waits 100 for its master. Since the fork the
    //    master did 50 of work and 150 in MPI_Recv, 100 of which it waited:
    //    its work is 50 of work and 50 of MPI_Recv against the worker's 100
    //    of work, an excess of 50 (MPI_Recv); with the master's waiting,
    //    100, the 100 of barrier waiting divides 50 : 100. Short-term
    //    delay_ompbarrier 33.3 on the master's MPI_Recv; 66.7 goes with the
    //    Late Sender wait to rank 1.
    //  - The Late Sender (100): rank 0 did 100 of main and 50 of work
    //    since MPI_Init, rank 1 100 of main and 150 of work: its excess of
    //    work (100) takes the 100 short-term and the barrier's 66.7
    //    long-term (delay_ompbarrier_longterm).
    //  - Rank 1's master waits 20 for its worker, whose work (180) exceeds
    //    the master's (150) by 30: 20 short-term on the worker's work.
    //  Every tick of barrier waiting is a delay cost: 33.3 + 20 + 66.7 = 120.
    TraceBuilder t(2);
    t.set_threads(2);
    const std::string r = "!$omp parallel @m.c:1", b = "!$omp implicit barrier @m.c:9";
    auto& master0 = t.rank(0);
    master0.enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, r).region(200, 250, "work");
    master0.recv(250, 400, 1, 0, 8).region(400, 500, b).leave(500).team_end(500).join(500);
    master0.finalize(600, 610).leave(610);
    t.thread(0, 1).team_begin(200).enter(200, r).region(200, 300, "work").region(300, 500, b).leave(500).team_end(500);
    auto& master1 = t.rank(1);
    master1.enter(0, "main").init(0, 100).fork(200, 2).team_begin(200).enter(200, r).region(200, 350, "work");
    master1.send(350, 360, 0, 0, 8).region(360, 400, b).leave(400).team_end(400).join(400);
    master1.finalize(600, 610).leave(610);
    t.thread(1, 1).team_begin(200).enter(200, r).region(200, 380, "work").region(380, 400, b).leave(400).team_end(400);
    const Analysis a = analyse(t);
    CHECK(a.warnings == "none");
    const std::string work = "main/" + r + "/work", recv = "main/" + r + "/MPI_Recv";
    CHECK(a.at("mpi_latesender", recv, 0, 0) == Approx(100 * ns));
    CHECK(a.at("delay_ompbarrier", recv, 0, 0) == Approx(100.0 / 3 * ns));
    CHECK(a.at("delay_ompbarrier", work, 0, 0) == 0);
    CHECK(a.at("delay_latesender", work, 1, 0) == Approx(100 * ns));
    CHECK(a.at("delay_ompbarrier_longterm", work, 1, 0) == Approx(200.0 / 3 * ns));
    CHECK(a.at("delay_ompbarrier", work, 1, 1) == Approx(20 * ns));
    CHECK(a.total("delay_ompbarrier") + a.total("delay_ompbarrier_longterm") == Approx(120 * ns));
    CHECK(a.total("delay_ompbarrier_longterm") == Approx(200.0 / 3 * ns));
}
