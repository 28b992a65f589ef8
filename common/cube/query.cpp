#include "common/cube/query.hpp"

#include <stdexcept>

namespace hindsight::cube {

namespace {

std::string joined(const CallPath& path) {
    std::string s;
    for (const std::string& region : path) s += (s.empty() ? "" : "/") + region;
    return s;
}

MetricIndex metric_named(const Report& report, std::string_view name) {
    const MetricIndex m = report.find_metric(name);
    if (m == kNone) throw std::out_of_range("no metric '" + std::string(name) + "' in the report");
    return m;
}

CnodeIndex cnode_at(const Report& report, const CallPath& path) {
    const CnodeIndex c = report.find_cnode(path);
    if (c == kNone) throw std::out_of_range("no call path '" + joined(path) + "' in the report");
    return c;
}

// Which locations to sum: all of them, or the threads of one rank.
std::vector<bool> locations_of(const Report& report, std::optional<std::int64_t> rank) {
    std::vector<bool> selected(report.locations().size(), !rank.has_value());
    if (!rank) return selected;
    bool found = false;
    for (LocationIndex l = 0; l < report.locations().size(); ++l) {
        if (report.location_groups()[report.locations()[l].group].rank == *rank) {
            selected[l] = true;
            found = true;
        }
    }
    if (!found) throw std::out_of_range("no rank " + std::to_string(*rank) + " in the report");
    return selected;
}

double sum(const Report& report, MetricIndex metric, const std::vector<bool>& cnodes,
           const std::vector<bool>& locations) {
    // Summed, or for a minimum or maximum metric their minimum or maximum.
    const Aggregation how = aggregation_of(report.metrics()[metric].data_type);
    double s = 0.0;
    for (CnodeIndex c = 0; c < cnodes.size(); ++c) {
        if (!cnodes[c]) continue;
        for (LocationIndex l = 0; l < locations.size(); ++l)
            if (locations[l]) s = aggregate(how, s, report.value(metric, c, l));
    }
    return s;
}

std::vector<bool> only(const Report& report, CnodeIndex c) {
    std::vector<bool> selected(report.cnodes().size(), false);
    selected[c] = true;
    return selected;
}

}  // namespace

double value_at(const Report& report, std::string_view metric, const CallPath& path, std::int64_t rank) {
    return sum(report, metric_named(report, metric), only(report, cnode_at(report, path)), locations_of(report, rank));
}

double sum_over_ranks(const Report& report, std::string_view metric, const CallPath& path) {
    return sum(report, metric_named(report, metric), only(report, cnode_at(report, path)),
               locations_of(report, std::nullopt));
}

double sum_over_call_paths(const Report& report, std::string_view metric, std::int64_t rank) {
    return sum(report, metric_named(report, metric), std::vector<bool>(report.cnodes().size(), true),
               locations_of(report, rank));
}

double total(const Report& report, std::string_view metric) {
    return sum(report, metric_named(report, metric), std::vector<bool>(report.cnodes().size(), true),
               locations_of(report, std::nullopt));
}

double subtree_sum(const Report& report, std::string_view metric, const CallPath& path,
                   std::optional<std::int64_t> rank) {
    const MetricIndex m = metric_named(report, metric);
    const CnodeIndex top = cnode_at(report, path);
    // Parents precede children, so one forward pass marks the whole subtree.
    std::vector<bool> selected(report.cnodes().size(), false);
    selected[top] = true;
    for (CnodeIndex c = top + 1; c < report.cnodes().size(); ++c) {
        const CnodeIndex parent = report.cnodes()[c].parent;
        selected[c] = parent != kNone && selected[parent];
    }
    return sum(report, m, selected, locations_of(report, rank));
}

}  // namespace hindsight::cube
