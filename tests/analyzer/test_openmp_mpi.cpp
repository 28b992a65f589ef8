// End to end: hybrid MPI + OpenMP traces in Score-P's conventions, built
// with exact timestamps (1 tick = 1 ns) and analyzed by hindsight-analyze
// under mpiexec. Every value is derived by hand in the comments from the
// timestamps; the report has one location per thread, master first.
//
// Environment: HINDSIGHT_ANALYZE (the analyzer), HINDSIGHT_MPIEXEC (mpiexec).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "common/cube/reader.hpp"
#include "tests/support/report_cells.hpp"
#include "tests/support/scratch_dir.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/support/trace_builder.hpp"

using namespace hindsight;
using namespace hindsight::testing;

namespace {

constexpr double ns = 1e-9;

struct Analysis {
    std::string warnings;  // the summary's line after "Warnings: "
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
    Analysis a{"", cube::read_cubex(report)};
    std::ifstream in(summary);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("Warnings: ", 0) == 0) a.warnings = line.substr(10);
    return a;
}

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
