// Runs the whole analysis pipeline over a TraceBuilder scenario in one
// process (one thread per rank) and looks results up by rank and call path,
// so that tests read like their hand derivations.
#pragma once

#include <string_view>
#include <vector>

#include "analyses/local_cube.hpp"
#include "analyses/pipeline.hpp"
#include "trace/local_trace.hpp"
#include "tests/support/builder_ticks.hpp"
#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

// The passes of the forward analyses alone (wait states, profile, counts,
// and the Late Receiver delivery, which always runs).
inline constexpr analyses::AnalysisOptions kForwardAnalyses{.critical_path = false, .root_cause = false};

class AnalysisResults {
public:
    // With `graph.enabled`, the activity graph's pass runs as well.
    explicit AnalysisResults(const TraceBuilder& builder,
                             analyses::AnalysisOptions options = kForwardAnalyses,
                             const analyses::GraphOptions& graph = {});

    // The metric's own share at the call path "main/foo/MPI_Recv" on `rank`
    // (0 when the rank never visited that path; throws on unknown region names).
    double own(analyses::Metric m, int rank, std::string_view path) const;
    // The metric including its descendants in the metric tree, at that path.
    double with_children(analyses::Metric m, int rank, std::string_view path) const;
    // The metric's own share summed over the rank's call paths.
    double total(analyses::Metric m, int rank) const;

    const analyses::AnalysisFindings& findings(int rank) const;
    const analyses::LocalCube& cube(int rank) const;
    const trace::LocalTrace& trace(int rank) const;

private:
    CallPathId find_path(int rank, std::string_view path) const;

    std::vector<trace::LocalTrace> traces_;
    std::vector<analyses::LocalCube> cubes_;
    std::vector<analyses::AnalysisFindings> findings_;
};

}  // namespace hindsight::testing
