// What the report tests build reports from.
//
// Region names that a page must show literally: markup, an event handler,
// a script end tag, quotes and ampersands, and bytes that are not UTF-8
// ("über" in Latin-1). tests/report/check_page.py holds the same list, as
// the browser must show it (the Latin-1 byte as U+FFFD).
#pragma once

#include <string>

#include "common/cube/report.hpp"

namespace hindsight::testing {

inline constexpr const char* kHostileNames[] = {
    "<img src=x onerror=alert(1)>",
    "</script><script>alert(2)</script>",
    "\"quoted\" & 'apostrophes' &amp; &lt;",
    "\xFC" "ber",
};

// A metric of seconds below `parent` (kNone: a root).
inline cube::MetricIndex add_seconds_metric(cube::Report& report, std::string id, std::string name,
                                            cube::MetricIndex parent) {
    return report.add_metric({std::move(id), std::move(name), "sec", "", "", cube::DataType::Double, parent});
}

// `ranks` single-threaded MPI ranks on one machine; location l is rank l.
inline void add_ranks(cube::Report& report, int ranks) {
    const cube::SystemNodeIndex machine = report.add_system_node({"machine", "machine", "", cube::kNone});
    for (int rank = 0; rank < ranks; ++rank)
        report.add_location(
            {"Master thread", 0, report.add_location_group({"MPI Rank " + std::to_string(rank), rank, machine})});
}

// A region known by its name alone.
inline cube::Region region_named(std::string name) {
    cube::Region region;
    region.name = std::move(name);
    return region;
}

// One metric, one call path, one rank: the least a page shows.
inline cube::Report tiny_report() {
    cube::Report r;
    const cube::MetricIndex time = add_seconds_metric(r, "time", "Time", cube::kNone);
    const cube::CnodeIndex main_cnode = r.add_cnode(r.add_region(region_named("main")), cube::kNone);
    add_ranks(r, 1);
    r.set_value(time, main_cnode, 0, 1.0);
    return r;
}

}  // namespace hindsight::testing
