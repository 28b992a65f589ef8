#include "analyzer/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include "analyses/patterns.hpp"

namespace hindsight::analyzer {
namespace {

std::string format(const char* fmt, double value) {
    char text[64];
    std::snprintf(text, sizeof text, fmt, value);
    return text;
}

// Region names from the root, shortened to the last three levels.
std::string call_path_name(const cube::Report& report, cube::CnodeIndex cnode) {
    std::vector<std::string> names;
    for (auto c = cnode; c != cube::kNone; c = report.cnodes()[c].parent)
        names.push_back(report.regions()[report.cnodes()[c].region].name);
    std::string text = names.size() > 3 ? "... > " : "";
    for (std::size_t i = std::min<std::size_t>(names.size(), 3); i-- > 0;)
        text += names[i] + (i ? " > " : "");
    return text;
}

struct MetricTotal {
    analyses::Metric metric;
    double total = 0;
    cube::CnodeIndex top_cnode = cube::kNone;
    double top_cnode_value = 0;
    std::int64_t worst_rank = -1;
    double worst_rank_value = 0;
};

MetricTotal total_of(const cube::Report& report, analyses::Metric metric) {
    MetricTotal t{metric};
    const auto m = report.find_metric(analyses::info(metric).unique_name);
    if (m == cube::kNone || !report.has_values(m)) return t;
    const auto locations = static_cast<cube::LocationIndex>(report.locations().size());
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
        double at_cnode = 0;
        for (cube::LocationIndex l = 0; l < locations; ++l) at_cnode += report.value(m, c, l);
        t.total += at_cnode;
        if (at_cnode > t.top_cnode_value) t.top_cnode = c, t.top_cnode_value = at_cnode;
    }
    if (t.top_cnode != cube::kNone)
        for (cube::LocationIndex l = 0; l < locations; ++l) {
            const double v = report.value(m, t.top_cnode, l);
            if (v > t.worst_rank_value) {
                t.worst_rank_value = v;
                t.worst_rank = report.location_groups()[report.locations()[l].group].rank;
            }
        }
    return t;
}

// The waiting a delay-cost metric explains: per pattern, short- plus
// long-term delay costs add up to its waiting time.
std::optional<analyses::Metric> explained_wait(analyses::Metric delay) {
    for (const analyses::PatternInfo& pattern : analyses::kWaitPatterns)
        if (pattern.delay && pattern.delay->aggregate == delay) return pattern.wait;
    return std::nullopt;
}

// Each pattern's own time (its waiting; for MPI_Init, which records none,
// its completion), then the time the others spent completing operations
// once the partners had met, in the order of the pattern table.
std::vector<analyses::Metric> wait_state_metrics() {
    std::vector<analyses::Metric> metrics;
    for (const analyses::PatternInfo& pattern : analyses::kWaitPatterns)
        if (const auto own = pattern.wait ? pattern.wait : pattern.completion) metrics.push_back(*own);
    for (const analyses::PatternInfo& pattern : analyses::kWaitPatterns)
        if (pattern.wait && pattern.completion) metrics.push_back(*pattern.completion);
    return metrics;
}

// In the order of the cost patterns.
std::vector<analyses::Metric> delay_cost_metrics() {
    std::vector<analyses::Metric> metrics;
    for (std::size_t c = 0; c < analyses::kCostPatterns; ++c)
        metrics.push_back(analyses::delay_metrics(static_cast<analyses::CostPattern>(c)).aggregate);
    return metrics;
}

void print_section(std::ostream& out, const cube::Report& report, const SummarySection& section,
                   const RunFacts& facts, double allocation_time) {
    const double basis = section.basis == Basis::WallClock ? facts.wall_seconds : allocation_time;
    const char* basis_name = section.basis == Basis::WallClock ? "of wall clock" : "of time";
    std::vector<MetricTotal> totals;
    for (analyses::Metric m : section.metrics) {
        MetricTotal t = total_of(report, m);
        if (t.total > 0) totals.push_back(t);
    }
    std::stable_sort(totals.begin(), totals.end(),
                     [](const MetricTotal& a, const MetricTotal& b) { return a.total > b.total; });
    if (totals.size() > section.limit) totals.resize(section.limit);
    out << section.title << ":\n";
    if (totals.empty()) out << "  none\n";
    for (const MetricTotal& t : totals) {
        const analyses::MetricInfo& info = analyses::info(t.metric);
        const bool seconds = info.unit == analyses::Unit::Seconds;
        out << "  " << info.display_name << ": " << format(seconds ? "%.6f s" : "%.0f", t.total);
        if (seconds && basis > 0)
            out << format(" (%.1f%% ", 100.0 * t.total / basis) << basis_name << ")";
        if (const auto wait = explained_wait(t.metric))
            out << ", explains " << format("%.6f s", total_of(report, *wait).total) << " of "
                << analyses::info(*wait).display_name << " waiting";
        out << "\n    mostly at " << call_path_name(report, t.top_cnode) << ": "
            << format(seconds ? "%.6f s" : "%.0f", t.top_cnode_value);
        if (t.worst_rank >= 0)
            out << ", most on rank " << t.worst_rank << " (" << format(seconds ? "%.6f s" : "%.0f", t.worst_rank_value)
                << ")";
        out << '\n';
    }
}

}  // namespace

std::vector<SummarySection> summary_sections() {
    return {
        {"Largest wait states", wait_state_metrics(), 5},
        // The call path that dominates the critical path, and its imbalance:
        // how much sooner the run could end if that call path were balanced.
        {"Critical path", {analyses::Metric::CriticalPath, analyses::Metric::CriticalPathImbalance}, 2, Basis::WallClock},
        // Root causes: the delays that the waiting traces back to, by the
        // pattern of the wait they caused (short- and long-term together).
        {"Largest delay costs (root causes of waiting)", delay_cost_metrics(), 5},
        // Allocation time lost to imbalance, charged to critical call paths.
        {"Imbalance indicators",
         {analyses::Metric::CriticalImbalanceImpact, analyses::Metric::IntraPartitionImbalance,
          analyses::Metric::InterPartitionImbalance},
         3},
    };
}

std::string warnings_line(const RunFacts& f) {
    std::vector<std::string> parts;
    const auto violations = f.clock_violations_p2p + f.clock_violations_collective;
    if (violations)
        parts.push_back(std::to_string(violations) + " clock-condition violations (" +
                        std::to_string(f.clock_violations_p2p) + " point-to-point, " +
                        std::to_string(f.clock_violations_collective) + " collective)");
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
    out << "Hindsight analysis of " << facts.trace_path << " (" << facts.ranks << " ranks)\n"
        << "  report: " << facts.report_path << '\n'
        << "  total time: " << format("%.6f s", time) << " (sum over ranks), wall clock "
        << format("%.6f s", facts.wall_seconds) << '\n';
    for (const SummarySection& section : sections) print_section(out, report, section, facts, time);
    const std::string warnings = warnings_line(facts);
    out << "Warnings: " << (warnings.empty() ? "none" : warnings) << '\n';
}

}  // namespace hindsight::analyzer
