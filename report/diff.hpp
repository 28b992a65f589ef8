// hindsight-report --diff: the difference of two reports, as cube_diff
// makes it. Metrics are matched by unique name, call paths by the names of
// their regions from the root, locations by rank and thread number; what
// only one report has is kept, with 0 for the other.
#pragma once

#include <string>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::report {

// A report with the structure of `after` plus what only `before` has, whose
// values are after - before, as the files store them (value_kind()
// MetricInclusive; either input kind is accepted).
cube::Report difference(const cube::Report& before, const cube::Report& after);

// The metrics (unique names, in report order) that `of` has and `other`
// lacks: in a difference their values are one run's alone, not a change.
std::vector<std::string> metrics_missing_in(const cube::Report& other, const cube::Report& of);

}  // namespace hindsight::report
