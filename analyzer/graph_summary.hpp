// The summary's blocks about the program activity graph: how imbalanced the
// collective calls were (wait before + wait after over execution, per call
// path, per rank and for the program), the longest path, the user's what-if
// predictions and the automatic suggestions (analyses/graph/activity_graph.hpp).
#pragma once

#include <iosfwd>

#include "analyses/graph/activity_graph.hpp"
#include "common/cube/report.hpp"

namespace hindsight::analyzer {

// `report` must hold metric-inclusive values.
void print_collective_imbalance(std::ostream& out, const cube::Report& report);
void print_graph_findings(std::ostream& out, const cube::Report& report, const analyses::GraphFindings& graph);

}  // namespace hindsight::analyzer
