// Walking a report read from a .cubex file the way people name its cells:
// call paths by the region names from the root down ("main/MPI_Recv"), ranks
// by the MPI rank of a location group, its threads summed. Shared by the
// tools that print, compare and check reports (cube_values, compare_reports,
// check_invariants), so that all of them name a cell alike.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "common/cube/report.hpp"

namespace report_cells {

// Region names from the root down to `cnode`, joined by '/'.
std::string call_path(const hindsight::cube::Report& report, hindsight::cube::CnodeIndex cnode);

// The values of `metric` at `cnode` as the report holds them, one per rank
// of the report (zeros included), the threads of a rank summed.
std::map<std::int64_t, double> values_by_rank(const hindsight::cube::Report& report,
                                              hindsight::cube::MetricIndex metric,
                                              hindsight::cube::CnodeIndex cnode);

}  // namespace report_cells
