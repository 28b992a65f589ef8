// Prints every non-zero value of a .cubex report as one tab-separated line
//     METRIC  CALL/PATH  RANK  VALUE
// with values as the file stores them (each metric includes its sub-metrics,
// call paths exclusive) and the threads of a rank summed. The end-to-end
// checks (live_run.py) read this instead of parsing CUBE themselves.
//
// usage: cube_values REPORT.cubex
#include <cstdio>
#include <exception>

#include "common/cube/reader.hpp"
#include "tests/support/report_cells.hpp"

namespace {

using hindsight::cube::Report;

void print_values(const Report& report) {
    for (hindsight::cube::MetricIndex m = 0; m < report.metrics().size(); ++m) {
        if (!report.has_values(m)) continue;
        for (hindsight::cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c)
            for (const auto& [rank, v] : report_cells::values_by_rank(report, m, c))
                if (v != 0.0)
                    std::printf("%s\t%s\t%lld\t%.17g\n", report.metrics()[m].unique_name.c_str(),
                                report_cells::call_path(report, c).c_str(), static_cast<long long>(rank), v);
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
