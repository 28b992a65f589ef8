// Prints every non-zero value of a .cubex report as one tab-separated line
//     METRIC  CALL/PATH  RANK  VALUE
// with values as the file stores them (each metric includes its sub-metrics,
// call paths exclusive) and the threads of a rank summed. The end-to-end
// checks (live_run.py) read this instead of parsing CUBE themselves.
//
// usage: cube_values REPORT.cubex
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <vector>

#include "common/cube/reader.hpp"

namespace {

using hindsight::cube::CnodeIndex;
using hindsight::cube::Report;

// Region names from the root down, joined by '/'.
std::string call_path(const Report& report, CnodeIndex cnode) {
    std::vector<std::string> names;
    for (CnodeIndex c = cnode; c != hindsight::cube::kNone; c = report.cnodes()[c].parent)
        names.push_back(report.regions()[report.cnodes()[c].region].name);
    std::string path;
    for (auto name = names.rbegin(); name != names.rend(); ++name) path += (path.empty() ? "" : "/") + *name;
    return path;
}

void print_values(const Report& report) {
    for (hindsight::cube::MetricIndex m = 0; m < report.metrics().size(); ++m) {
        if (!report.has_values(m)) continue;
        for (CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
            // A rank may have several threads (locations): sum them.
            std::map<std::int64_t, double> by_rank;
            for (hindsight::cube::LocationIndex l = 0; l < report.locations().size(); ++l) {
                const double v = report.value(m, c, l);
                if (v != 0.0) by_rank[report.location_groups()[report.locations()[l].group].rank] += v;
            }
            for (const auto& [rank, v] : by_rank)
                std::printf("%s\t%s\t%lld\t%.17g\n", report.metrics()[m].unique_name.c_str(),
                            call_path(report, c).c_str(), static_cast<long long>(rank), v);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: cube_values REPORT.cubex\n");
        return 2;
    }
    try {
        print_values(hindsight::cube::read_cubex(argv[1]));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cube_values: %s\n", e.what());
        return 1;
    }
    return 0;
}
