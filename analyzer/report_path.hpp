// The report's path, checked before the analysis starts: a problem with it
// found only after a long analysis would waste the run, and a report
// written over the trace it came from would destroy the trace.
#pragma once

#include <string>

namespace hindsight::analyzer {

// Throws hindsight::Error naming `report` when it is a file of the trace
// whose anchor is `trace` (the anchor, its global definitions, anything in
// its directory of per-location files), or when it cannot be written
// (common/output_file.hpp says which paths those are).
void check_report_path(const std::string& report, const std::string& trace);

}  // namespace hindsight::analyzer
