// The timeline's windows as the page reads them: REPORT.timeline.json
// beside the report (schema "hindsight-timeline", doc/analyzer.md), made on
// rank 0 from the windows (alike on every rank) and the lanes every rank
// cut of them (analyses/timeline/).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <mpi.h>

#include "analyses/timeline/timeline_windows.hpp"
#include "replay/progress_watch.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyzer {

// Collective over `world`: every rank's lanes (AnalysisFindings::
// timeline_lanes), by rank, on rank 0; empty elsewhere.
std::vector<std::vector<std::byte>> gather_lanes(const std::vector<std::byte>& mine, MPI_Comm world,
                                                 replay::ProgressWatch& watch);

// The document; `lanes_by_rank[r]` holds rank r's lane of each window, in
// the windows' order. `trace` gives the names (its definitions and call
// tree are the same on every rank). Throws hindsight::Error naming `origin`
// when a rank's lanes are damaged.
std::string timeline_json(const std::vector<analyses::TimelineWindow>& windows,
                          const std::vector<std::vector<std::byte>>& lanes_by_rank, const trace::LocalTrace& trace,
                          const std::string& origin);

}  // namespace hindsight::analyzer
