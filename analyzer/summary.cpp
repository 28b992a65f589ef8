#include "analyzer/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <utility>

#include "analyses/patterns.hpp"
#include "analyzer/graph_summary.hpp"
#include "analyzer/report_queries.hpp"
#include "analyzer/thread_summary.hpp"
#include "common/time_format.hpp"

namespace hindsight::analyzer {
namespace {

// Causes and single waits listed per wait state.
constexpr std::size_t kCausesShown = 3;
constexpr std::size_t kWaitsShown = 3;

// Small noise: a pattern flagged so below the share of the time its rows'
// declaration sets, which the page applies too (common/wait_patterns.hpp).
bool is_small_noise(analyses::Metric metric, double total, double allocation_time) {
    const metrics::PatternInfo* pattern = metrics::pattern_measured_by(metric);
    return pattern && pattern->noise_when_small && total <= metrics::kNoiseShare * allocation_time;
}

// Each pattern's own time (its waiting; for MPI_Init, which records none,
// its completion), then the time the others spent completing operations
// once the partners had met, in the order of the pattern table.
std::vector<analyses::Metric> wait_state_metrics() {
    std::vector<analyses::Metric> found;
    for (const analyses::PatternInfo& pattern : analyses::kWaitPatterns)
        if (const auto own = pattern.own_metric()) found.push_back(*own);
    for (const analyses::PatternInfo& pattern : analyses::kWaitPatterns)
        if (pattern.wait && pattern.completion) found.push_back(*pattern.completion);
    return found;
}

std::string value_text(analyses::Unit unit, double value) {
    if (unit == analyses::Unit::Seconds) return format_seconds(value);
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

// The delays behind a pattern's waiting: the call paths and ranks with the
// largest delay costs of the pattern. Delay costs explain the pattern's
// waiting summed over the run, not wait by wait, hence "mostly".
void print_causes(std::ostream& out, const cube::Report& report, const analyses::DelayMetrics& delay) {
    const auto cells = largest_cells(report, {delay.short_term, delay.long_term}, kCausesShown);
    if (cells.empty()) return;
    out << "    caused mostly by (delay costs over the run):\n";
    for (const Cell& cell : cells) {
        const double direct = cell.values[0], indirect = cell.values[1];
        out << "      " << call_path_name(report, cell.cnode) << " on rank " << cell.rank;
        if (cell.thread > 0) out << ", OMP thread " << cell.thread;
        out << ": " << format_seconds(cell.sum) << " (";
        if (direct > 0 && indirect > 0)
            out << format_seconds(direct) << " direct, " << format_seconds(indirect) << " indirect";
        else
            out << (direct > 0 ? "direct" : "indirect");
        out << ")\n";
    }
}

// The longest single waits of the pattern over all ranks, with their start,
// so that they can be found in a timeline.
void print_longest_waits(std::ostream& out, const cube::Report& report, const RunFacts& facts,
                         analyses::WaitPattern pattern) {
    std::vector<RankedWait> waits;
    for (const RankedWait& wait : facts.longest_waits)
        if (wait.pattern == pattern && wait.cnode < report.cnodes().size()) waits.push_back(wait);
    if (waits.empty()) return;
    std::stable_sort(waits.begin(), waits.end(), [](const RankedWait& a, const RankedWait& b) {
        return a.waiting_seconds != b.waiting_seconds ? a.waiting_seconds > b.waiting_seconds
                                                      : a.start_seconds < b.start_seconds;
    });
    if (waits.size() > kWaitsShown) waits.resize(kWaitsShown);
    out << "    longest single waits (starting at seconds since the trace's start):\n";
    for (const RankedWait& wait : waits) {
        out << "      rank " << wait.rank;
        if (wait.thread > 0) out << ", OMP thread " << wait.thread;
        out << " at " << format_timestamp(wait.start_seconds) << ": "
            << format_seconds(wait.waiting_seconds) << " in " << call_path_name(report, wait.cnode) << '\n';
    }
}

// `same`: the metrics of the section whose values equal t's (listed once,
// their names joined by " = ").
void print_metric(std::ostream& out, const cube::Report& report, const MetricTotal& t,
                  const std::vector<analyses::Metric>& same, const SummarySection& section, const RunFacts& facts,
                  double allocation_time) {
    const analyses::MetricInfo& info = analyses::info(t.metric);
    out << "  " << info.display_name;
    for (const analyses::Metric m : same) out << " = " << analyses::info(m).display_name;
    out << ": " << value_text(info.unit, t.total);
    if (info.unit == analyses::Unit::Seconds) {
        if (section.basis == Basis::WallClock)
            out << " (of " << format_seconds(facts.wall_seconds) << " wall clock)";
        else if (allocation_time > 0)
            out << " (" << format_percent(t.total / allocation_time) << ")";
    }
    out << "\n    mostly at " << call_path_name(report, t.top_cnode) << " (" << value_text(info.unit, t.top_cnode_value)
        << ")";
    if (t.worst_rank >= 0)
        out << ", most on rank " << t.worst_rank << " (" << value_text(info.unit, t.worst_rank_value) << ")";
    out << '\n';
    const analyses::PatternInfo* pattern = metrics::pattern_measured_by(t.metric);
    if (!pattern) return;
    if (pattern->delay) print_causes(out, report, *pattern->delay);
    print_longest_waits(out, report, facts, pattern->pattern);
    out << "    advice: " << pattern->advice << '\n';
}

void print_section(std::ostream& out, const cube::Report& report, const SummarySection& section,
                   const RunFacts& facts, double allocation_time) {
    std::vector<MetricTotal> totals;
    for (analyses::Metric m : section.metrics) {
        MetricTotal t = total_of(report, m);
        if (t.total > 0 && !is_small_noise(m, t.total, allocation_time)) totals.push_back(t);
    }
    std::stable_sort(totals.begin(), totals.end(),
                     [](const MetricTotal& a, const MetricTotal& b) { return a.total > b.total; });
    // A metric with the same total, largest call path and rank as one
    // before it holds the same values (the imbalance impact is all
    // intra-partition where no partition waits for another): one line.
    std::vector<std::pair<MetricTotal, std::vector<analyses::Metric>>> lines;
    for (const MetricTotal& t : totals) {
        if (!lines.empty()) {
            const MetricTotal& before = lines.back().first;
            if (cube::is_rounding_noise(before.total - t.total, before.total) && before.top_cnode == t.top_cnode &&
                before.worst_rank == t.worst_rank) {
                lines.back().second.push_back(t.metric);
                continue;
            }
        }
        lines.push_back({t, {}});
    }
    if (lines.size() > section.limit) lines.resize(section.limit);
    out << section.title << ":\n";
    if (lines.empty()) out << "  none\n";
    for (const auto& [t, same] : lines) print_metric(out, report, t, same, section, facts, allocation_time);
}

}  // namespace

std::vector<SummarySection> summary_sections() {
    return {
        {"Largest wait states", wait_state_metrics(), metrics::kWaitStatesShown},
        // The call path that dominates the critical path, and its imbalance:
        // how much sooner the run could end if that call path were balanced.
        // (Not titled "Critical path" alone: its first line is the metric
        // of that name.)
        {"Critical path and its imbalance",
         {analyses::Metric::CriticalPath, analyses::Metric::CriticalPathImbalance},
         2,
         Basis::WallClock},
        // Allocation time lost to imbalance, charged to critical call paths.
        {"Imbalance indicators",
         {analyses::Metric::CriticalImbalanceImpact, analyses::Metric::IntraPartitionImbalance,
          analyses::Metric::InterPartitionImbalance},
         3},
    };
}

std::string warnings_line(const RunFacts& f) {
    std::vector<std::string> parts(f.unpaired);
    parts.insert(parts.end(), f.damage.begin(), f.damage.end());
    const auto violations = f.clock_violations_p2p + f.clock_violations_collective;
    if (violations)
        parts.push_back(std::to_string(violations) + " clock-condition violations (" +
                        std::to_string(f.clock_violations_p2p) + " point-to-point, " +
                        std::to_string(f.clock_violations_collective) + " collective)");
    if (f.delay_costs_passed_early)
        parts.push_back(std::to_string(f.delay_costs_passed_early) +
                        " wait states passed their delay costs on before all the costs they carry had come (the "
                        "ranks' traces order their synchronizations differently): long-term delay costs may fall short");
    if (const std::string flushes = buffer_flush_warning(f.flushes); !flushes.empty()) parts.push_back(flushes);
    if (f.timestamp_fixups)
        parts.push_back(std::to_string(f.timestamp_fixups) + " timestamps raised to keep event streams in order");
    const auto skipped = f.skipped_metric_records + f.skipped_parameter_records + f.skipped_other_records;
    if (skipped) {
        std::string kinds;
        auto add = [&](std::uint64_t n, const char* kind) {
            if (n) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
        };
        add(f.skipped_metric_records, "METRIC");
        add(f.skipped_parameter_records, "PARAMETER");
        add(f.skipped_other_records, "other");
        parts.push_back("skipped " + std::to_string(skipped) + " records the analysis does not use (" + kinds + ")");
    }
    std::string line;
    for (const auto& p : parts) line += (line.empty() ? "" : "; ") + p;
    return line;
}

void print_summary(std::ostream& out, const cube::Report& report, const RunFacts& facts,
                   const std::vector<SummarySection>& sections) {
    if (report.value_kind() != cube::ValueKind::MetricInclusive) {
        cube::Report inclusive = report;
        inclusive.to_metric_inclusive();
        print_summary(out, inclusive, facts, sections);
        return;
    }
    const double time = total_of(report, analyses::Metric::Time).total;
    out << "Hindsight analysis of " << facts.trace_path << " (" << facts.ranks << (facts.ranks == 1 ? " rank)\n" : " ranks)\n")
        << facts.run_line << "  report: " << facts.report_path << '\n'
        << (facts.page_path.empty() ? "" : "  page: " + facts.page_path + '\n')
        << "  total time: " << format_seconds(time) << " (summed over ranks), wall clock "
        << format_seconds(facts.wall_seconds) << '\n'
        << "  percentages: shares of the total time\n";
    for (const SummarySection& section : sections) print_section(out, report, section, facts, time);
    print_collective_imbalance(out, report);
    if (facts.uses_mpi) print_graph_findings(out, report, facts.graph);
    print_thread_summary(out, report, time);
    for (const auto& further : facts.further_sections) further(out, time);
    const std::string warnings = warnings_line(facts);
    out << "Warnings: " << (warnings.empty() ? "none" : warnings) << '\n';
}

}  // namespace hindsight::analyzer
