// The summary's blocks about the program activity graph: how imbalanced the
// collective calls were (wait before + wait after over execution, per call
// path, per rank and for the program), the longest path, the user's what-if
// predictions and the automatic suggestions (analyses/graph/activity_graph.hpp).
#pragma once

#include <iosfwd>
#include <string>

#include "analyses/graph/activity_graph.hpp"
#include "common/cube/report.hpp"

namespace hindsight::analyzer {

// `report` must hold metric-inclusive values.
void print_collective_imbalance(std::ostream& out, const cube::Report& report);
void print_graph_findings(std::ostream& out, const cube::Report& report, const analyses::GraphFindings& graph);

// The longest path as recorded, each --what-if and each suggestion, as JSON
// (the report's attribute report::kActivityGraphAttribute)
// (schema hindsight-activity-graph, version 1; doc/activity-graph.md):
// label, length in seconds and the call paths most on the path (the
// report's cnode indices, at most 10, largest first). Seconds to 12
// significant digits, which keep nanoseconds of a run of 1000 s. Empty
// when the graph was not computed.
std::string graph_findings_json(const analyses::GraphFindings& graph);

}  // namespace hindsight::analyzer
