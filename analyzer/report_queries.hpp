// What the summary asks of a finished report: a metric's total and where it
// is largest, the call paths and ranks where a sum of metrics is largest,
// and call paths by name. The report must hold metric-inclusive values
// (as the Cube browser shows a collapsed metric).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyses/metrics.hpp"
#include "common/cube/report.hpp"

namespace hindsight::analyzer {

// Region names from the root ("main > solve > MPI_Recv"), shortened to the
// last three levels.
std::string call_path_name(const cube::Report& report, cube::CnodeIndex cnode);

// A metric summed over call paths and ranks, the call path with the
// largest share, and the rank contributing most there.
struct MetricTotal {
    analyses::Metric metric;
    double total = 0;
    cube::CnodeIndex top_cnode = cube::kNone;
    double top_cnode_value = 0;
    std::int64_t worst_rank = -1;
    double worst_rank_value = 0;
};
MetricTotal total_of(const cube::Report& report, analyses::Metric metric);

// One call path on one location (a rank's thread), with the values of the
// metrics asked for.
struct Cell {
    cube::CnodeIndex cnode = cube::kNone;
    std::int64_t rank = -1;
    std::int64_t thread = 0;  // 0: the master
    std::vector<double> values;  // in the order of the metrics asked for
    double sum = 0;
};

// The `count` cells where the sum of `metrics` is largest, largest first
// (ties in call-path, then rank order); cells with a sum of 0 are left out.
std::vector<Cell> largest_cells(const cube::Report& report, const std::vector<analyses::Metric>& metrics,
                                std::size_t count);

}  // namespace hindsight::analyzer
