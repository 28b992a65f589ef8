// The report tools show values as a CUBE file stores them (each metric
// including its sub-metrics); a report built in memory may hold own shares
// instead (common/cube/report.hpp).
#pragma once

#include "common/cube/report.hpp"

namespace hindsight::report {

// `report` itself when it holds stored values (as read_cubex() returns
// them), otherwise `copy`, made a converted copy of it.
const cube::Report& stored_values(const cube::Report& report, cube::Report& copy);

}  // namespace hindsight::report
