// The readable summary hindsight-analyze prints after writing the report:
// the run's total time, then sections that each rank a list of metrics by
// their total (with the call path holding the largest share and the rank
// that contributes most there), then the warnings. A metric that measures a
// wait-state pattern (its row in common/wait_pattern_rows.def) also gets the
// delays that caused that waiting (the largest delay costs of the pattern)
// and the pattern's advice; patterns their row marks as noise are left out
// while small (common/wait_patterns.hpp says how small). Sections are data, so that further analyses add theirs by
// appending to summary_sections().
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "analyses/graph/activity_graph.hpp"
#include "analyses/metrics.hpp"
#include "analyses/patterns.hpp"
#include "analyzer/buffer_flushes.hpp"
#include "common/cube/report.hpp"

namespace hindsight::analyzer {

// What a section's values are compared with: the allocation time (the sum
// of all ranks' time, as a percentage) for resources such as waiting, the
// wall-clock span (named, not as a percentage, so that the summary has one
// percentage basis) for quantities of one timeline such as the critical
// path.
enum class Basis { AllocationTime, WallClock };

struct SummarySection {
    std::string title;
    std::vector<analyses::Metric> metrics;  // candidates; shown largest first, zeros left out
    std::size_t limit = 5;        // at most this many lines
    Basis basis = Basis::AllocationTime;
};

// The sections of the summary, in order.
std::vector<SummarySection> summary_sections();

// One of the longest wait states of a rank (analyses/longest_waits.hpp).
struct RankedWait {
    int rank = 0;
    analyses::WaitPattern pattern = analyses::WaitPattern::None;
    cube::CnodeIndex cnode = cube::kNone;  // the global call path, the report's cnode
    double start_seconds = 0;              // since the trace's start
    double waiting_seconds = 0;
    std::uint32_t thread = 0;  // of the rank (0: the master)
};

// What the summary reports besides the cube's values.
struct RunFacts {
    std::string trace_path;
    std::string report_path;
    std::string page_path;  // the report's HTML page; empty: none written
    std::string run_line;   // what ran (run_information.hpp); empty: not known
    int ranks = 0;
    // Whether the program used MPI (its trace defines MPI functions): the
    // sections about communication say nothing of a program that did not.
    bool uses_mpi = true;
    double wall_seconds = 0;  // from the first to the last event of any rank
    // Sums over ranks.
    std::uint64_t skipped_metric_records = 0;
    std::uint64_t skipped_parameter_records = 0;
    std::uint64_t skipped_other_records = 0;
    std::uint64_t timestamp_fixups = 0;
    std::uint64_t clock_violations_p2p = 0;
    std::uint64_t clock_violations_collective = 0;
    // Wait states whose delay costs went on before all their shares came.
    std::uint64_t delay_costs_passed_early = 0;
    // Damage in the trace the analysis went around, one sentence per rank
    // and kind, naming the rank (trace::LoadStats::damage).
    std::vector<std::string> damage;
    // What did not pair up between the ranks' traces and was left out of
    // the analysis (or kept despite a difference), one sentence per kind
    // (pairing_warnings.hpp).
    std::vector<std::string> unpaired;
    // Each rank's longest waits of each pattern, in any order.
    std::vector<RankedWait> longest_waits;
    // Sections of other analyses, printed before the warnings; given the
    // total time summed over ranks, the basis of the percentages. Those
    // about communication are left out where the program used no MPI.
    std::vector<std::function<void(std::ostream&, double total_time)>> further_sections;
    // The trace buffer's flushes (buffer_flushes.hpp), from the report.
    BufferFlushes flushes;
    // The activity graph's path and predictions (graph_summary.hpp).
    analyses::GraphFindings graph;
};

// The warnings line ("" when there is nothing to warn about).
std::string warnings_line(const RunFacts& facts);

// `report` may hold either value kind; values are shown as the Cube browser
// shows a collapsed metric (including its sub-metrics).
void print_summary(std::ostream& out, const cube::Report& report, const RunFacts& facts,
                   const std::vector<SummarySection>& sections);

}  // namespace hindsight::analyzer
