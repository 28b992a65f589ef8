#include "report/diff_findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string_view>

#include "common/time_format.hpp"
#include "report/findings.hpp"
#include "report/stored_values.hpp"
#include "report/text_mode.hpp"

namespace hindsight::report {
namespace {

// A change as people read it, with its sign: times as the summary shows
// them ("+1.50 s", "-153 ns"), whole counts in full ("+1200 bytes").
std::string signed_text(double value, const std::string& unit) {
    if (unit == "sec") return (value > 0 ? "+" : "") + format_seconds(value);
    char text[32];
    const bool whole = value == std::round(value) && std::fabs(value) < 1e15;
    std::snprintf(text, sizeof text, whole ? "%+.0f" : "%+.4g", value);
    return std::string(text) + (unit.empty() ? "" : " " + unit);
}

void print_list(std::ostream& out, const cube::Report& report, const std::vector<Change>& changes) {
    if (changes.empty()) out << "  none\n";
    for (const Change& c : changes) {
        const cube::Metric& metric = report.metrics()[c.metric];
        out << "  " << metric.display_name << ": " << signed_text(c.total, metric.unit) << ", most at "
            << call_path_text(report, c.cnode) << " on rank " << c.rank << " (" << signed_text(c.value, metric.unit)
            << ")\n";
    }
}

}  // namespace

DiffFindings diff_findings(const cube::Report& any) {
    cube::Report copy;
    const cube::Report& report = stored_values(any, copy);  // metric-inclusive, as files hold them
    DiffFindings found;
    std::vector<cube::MetricIndex> seen;
    for (const std::string_view name : finding_metric_names()) {
        const cube::MetricIndex m = report.find_metric(name);
        if (m == cube::kNone || !report.has_values(m) || std::find(seen.begin(), seen.end(), m) != seen.end()) continue;
        seen.push_back(m);
        // Per call path and rank (the threads of a rank summed).
        double total = 0, magnitude = 0;
        Change up{m}, down{m};
        for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
            std::vector<std::pair<std::int64_t, double>> by_rank;
            for (cube::LocationIndex l = 0; l < report.locations().size(); ++l) {
                const double v = report.value(m, c, l);
                total += v;
                magnitude += std::abs(v);
                const std::int64_t rank = report.location_groups()[report.locations()[l].group].rank;
                const auto it = std::find_if(by_rank.begin(), by_rank.end(), [&](const auto& r) { return r.first == rank; });
                if (it == by_rank.end()) by_rank.emplace_back(rank, v);
                else it->second += v;
            }
            for (const auto& [rank, v] : by_rank) {
                if (v > up.value) up.cnode = c, up.rank = rank, up.value = v;
                if (v < down.value) down.cnode = c, down.rank = rank, down.value = v;
            }
        }
        if (total == 0 || cube::is_rounding_noise(total, magnitude)) continue;
        Change& change = total > 0 ? up : down;
        if (change.cnode == cube::kNone) continue;
        change.total = total;
        (total > 0 ? found.worse : found.better).push_back(change);
    }
    const auto larger = [](const Change& a, const Change& b) { return std::abs(a.total) > std::abs(b.total); };
    std::stable_sort(found.worse.begin(), found.worse.end(), larger);
    std::stable_sort(found.better.begin(), found.better.end(), larger);
    return found;
}

void print_diff_findings(std::ostream& out, const cube::Report& report, const DiffFindings& findings) {
    out << "What got worse (AFTER − BEFORE):\n";
    print_list(out, report, findings.worse);
    out << "What got better:\n";
    print_list(out, report, findings.better);
}

}  // namespace hindsight::report
