// Writes a small CUBE report whose names try to be markup, so that the page
// test can check that they are shown as text:
//
//     write_hostile_report OUT.cubex
//
// Call tree: main with one callee per hostile name; metric "time" is
// 1, 2, 3, ... seconds at the callees in order (0 at main), on one rank.
#include <iostream>

#include "common/cube/writer.hpp"
#include "common/error.hpp"
#include "tests/report/report_fixture.hpp"

int main(int argc, char** argv) {
    using namespace hindsight::cube;
    if (argc != 2) {
        std::cerr << "usage: write_hostile_report OUT.cubex\n";
        return 2;
    }
    Report report;
    const MetricIndex time = report.add_metric({"time", "Time \"&\" <b>bold</b>", "sec", "Allocation <i>time</i>", "",
                                                DataType::Double, kNone});
    const CnodeIndex main_cnode = report.add_cnode(report.add_region(hindsight::testing::region_named("main")), kNone);
    const SystemNodeIndex machine = report.add_system_node({"<b>machine</b>", "machine", "", kNone});
    const LocationGroupIndex rank = report.add_location_group({"MPI Rank 0", 0, machine});
    const LocationIndex thread = report.add_location({"Master thread", 0, rank});
    double seconds = 1.0;
    for (const char* name : hindsight::testing::kHostileNames) {
        const CnodeIndex c = report.add_cnode(report.add_region(hindsight::testing::region_named(name)), main_cnode);
        report.set_value(time, c, thread, seconds);
        seconds += 1.0;
    }
    try {
        write_cubex(report, argv[1]);
    } catch (const hindsight::Error& e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
    return 0;
}
