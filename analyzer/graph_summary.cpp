#include "analyzer/graph_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "analyzer/report_queries.hpp"
#include "common/time_format.hpp"
#include "common/text_fields.hpp"

namespace hindsight::analyzer {
namespace {

constexpr std::size_t kShown = 3;  // call paths per list

// A ratio shown only while the execution is at least this share of the
// waiting: beyond, the call was all but waiting, and a ratio in the hundreds
// would measure how short its own work was (a few timer ticks), not how
// imbalanced the ranks arrived.
constexpr double kNegligibleExecution = 0.01;

struct Ratio {
    double waiting = 0;  // wait before + wait after
    double base = 0;     // execution (+ computation, per rank and program)
    double ratio() const { return base > 0 ? waiting / base : 0.0; }
};

// "11.67 times its execution (30.0 ms)", or, for an execution too short to
// compare with, what the call was instead. `base` names the denominator.
std::string against(const Ratio& r, const std::string& base, bool show_base) {
    // Also waiting around calls that took no time of their own.
    if (r.base < kNegligibleExecution * r.waiting)
        return base + " negligible (" + format_seconds(r.base) + ", under " +
               std::to_string(static_cast<int>(kNegligibleExecution * 100)) + " % of the waiting)";
    char text[64];
    std::snprintf(text, sizeof text, "%.2f", r.ratio());
    return std::string(text) + " times " + base + (show_base ? " (" + format_seconds(r.base) + ")" : "");
}

void print_path(std::ostream& out, const cube::Report& report, const analyses::GraphScenario& g) {
    std::string line;
    for (std::size_t i = 0; i < g.path.size() && i < kShown; ++i)
        line += (i ? ", " : "") + call_path_name(report, g.path[i].first) + " " + format_seconds(g.path[i].second);
    if (!line.empty()) out << "      on the path: " << line << '\n';
}

// Call paths per scenario in the report's document.
constexpr std::size_t kKept = 10;

std::string seconds_json(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.12g", seconds);
    return text;
}

std::string scenario_json(const analyses::GraphScenario& g) {
    std::string j = "{\"label\":" + hindsight::json_string(g.label) + ",\"seconds\":" + seconds_json(g.length_seconds) +
                    ",\"path\":[";
    for (std::size_t i = 0; i < g.path.size() && i < kKept; ++i)
        j += (i ? ",[" : "[") + std::to_string(g.path[i].first) + "," + seconds_json(g.path[i].second) + "]";
    return j + "]}";
}

std::string scenarios_json(const std::vector<analyses::GraphScenario>& scenarios) {
    std::string j = "[";
    for (std::size_t i = 0; i < scenarios.size(); ++i) j += (i ? "," : "") + scenario_json(scenarios[i]);
    return j + "]";
}

}  // namespace

std::string graph_findings_json(const analyses::GraphFindings& graph) {
    if (!graph.computed) return "";
    return "{\"schema\":\"hindsight-activity-graph\",\"version\":1,\"recorded\":" + scenario_json(graph.recorded) +
           ",\"what_ifs\":" + scenarios_json(graph.what_ifs) + ",\"suggestions\":" + scenarios_json(graph.suggestions) +
           "}";
}

void print_collective_imbalance(std::ostream& out, const cube::Report& report) {
    const auto before = report.find_metric(analyses::info(analyses::Metric::CollWaitBefore).unique_name);
    const auto after = report.find_metric(analyses::info(analyses::Metric::CollWaitAfter).unique_name);
    const auto execution = report.find_metric(analyses::info(analyses::Metric::CollExecution).unique_name);
    const auto comp = report.find_metric(analyses::info(analyses::Metric::Comp).unique_name);
    if (before == cube::kNone || after == cube::kNone || execution == cube::kNone) return;
    if (!report.has_values(before) && !report.has_values(after)) return;
    const auto value = [&](cube::MetricIndex m, cube::CnodeIndex c, cube::LocationIndex l) {
        return m != cube::kNone && report.has_values(m) ? report.value(m, c, l) : 0.0;
    };
    const std::size_t locations = report.locations().size();
    std::vector<Ratio> by_path(report.cnodes().size()), by_rank(locations);
    Ratio program;
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c)
        for (cube::LocationIndex l = 0; l < locations; ++l) {
            const double waiting = value(before, c, l) + value(after, c, l);
            const double work = value(execution, c, l);
            by_path[c].waiting += waiting;
            by_path[c].base += work;
            by_rank[l].waiting += waiting;
            by_rank[l].base += work + value(comp, c, l);
        }
    for (const Ratio& r : by_rank) program.waiting += r.waiting, program.base += r.base;
    if (!(program.waiting > 0)) return;
    out << "Collective imbalance (waiting in collective calls against their execution):\n"
        << "  program: waiting " << against(program, "the execution and computation of all ranks", false) << '\n';
    std::vector<cube::CnodeIndex> paths;
    for (cube::CnodeIndex c = 0; c < by_path.size(); ++c)
        if (by_path[c].waiting > 0) paths.push_back(c);
    std::sort(paths.begin(), paths.end(),
              [&](auto a, auto b) { return by_path[a].waiting > by_path[b].waiting || (by_path[a].waiting == by_path[b].waiting && a < b); });
    for (std::size_t i = 0; i < paths.size() && i < kShown; ++i) {
        const Ratio& r = by_path[paths[i]];
        out << "  " << call_path_name(report, paths[i]) << ": waiting " << format_seconds(r.waiting) << ", "
            << against(r, "its execution", true) << '\n';
    }
    const auto worst = std::max_element(by_rank.begin(), by_rank.end(),
                                        [](const Ratio& a, const Ratio& b) { return a.ratio() < b.ratio(); });
    const auto location = static_cast<cube::LocationIndex>(worst - by_rank.begin());
    out << "  most imbalanced rank: " << report.location_groups()[report.locations()[location].group].rank
        << ", waiting " << against(*worst, "its execution and computation", false) << '\n';
}

void print_graph_findings(std::ostream& out, const cube::Report& report, const analyses::GraphFindings& graph) {
    if (!graph.computed) {
        // The graph's pass is not free (doc/activity-graph.md), so it runs on
        // request; the summary says what it would tell.
        out << "What if: --graph predicts the run time with each of the most imbalanced call paths balanced\n";
        return;
    }
    const double length = graph.recorded.length_seconds;
    out << "Longest path of the activity graph: " << format_seconds(length) << '\n';
    print_path(out, report, graph.recorded);
    const auto predict = [&](const analyses::GraphScenario& g) {
        out << "    " << g.label << ": " << format_seconds(g.length_seconds);
        if (length > 0) out << " (" << format_percent((g.length_seconds - length) / length) << ")";
        out << '\n';
        print_path(out, report, g);
    };
    if (!graph.what_ifs.empty()) {
        out << "  What if (predicted run time):\n";
        for (const auto& g : graph.what_ifs) predict(g);
    }
    if (!graph.suggestions.empty()) {
        out << "  Most promising changes (predicted run time):\n";
        for (const auto& g : graph.suggestions) predict(g);
    }
}

}  // namespace hindsight::analyzer
