#include "analyzer/report_queries.hpp"

#include <algorithm>

namespace hindsight::analyzer {
namespace {

std::int64_t rank_of(const cube::Report& report, cube::LocationIndex location) {
    return report.location_groups()[report.locations()[location].group].rank;
}

}  // namespace

std::string call_path_name(const cube::Report& report, cube::CnodeIndex cnode) {
    std::vector<std::string> names;
    for (auto c = cnode; c != cube::kNone; c = report.cnodes()[c].parent)
        names.push_back(report.regions()[report.cnodes()[c].region].name);
    std::string text = names.size() > 3 ? "... > " : "";
    for (std::size_t i = std::min<std::size_t>(names.size(), 3); i-- > 0;)
        text += names[i] + (i ? " > " : "");
    return text;
}

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
                t.worst_rank = rank_of(report, l);
            }
        }
    return t;
}

std::vector<Cell> largest_cells(const cube::Report& report, const std::vector<analyses::Metric>& metrics,
                                std::size_t count) {
    std::vector<cube::MetricIndex> indices;
    for (const analyses::Metric metric : metrics) {
        const auto m = report.find_metric(analyses::info(metric).unique_name);
        indices.push_back(m != cube::kNone && report.has_values(m) ? m : cube::kNone);
    }
    std::vector<Cell> cells;
    const auto locations = static_cast<cube::LocationIndex>(report.locations().size());
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c)
        for (cube::LocationIndex l = 0; l < locations; ++l) {
            Cell cell{c, rank_of(report, l), report.locations()[l].rank, {}, 0};
            for (const cube::MetricIndex m : indices) {
                cell.values.push_back(m == cube::kNone ? 0.0 : report.value(m, c, l));
                cell.sum += cell.values.back();
            }
            if (cell.sum > 0) cells.push_back(std::move(cell));
        }
    std::stable_sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) { return a.sum > b.sum; });
    if (cells.size() > count) cells.resize(count);
    return cells;
}

}  // namespace hindsight::analyzer
