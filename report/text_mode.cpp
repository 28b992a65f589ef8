#include "report/text_mode.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "common/cube/call_paths.hpp"
#include "report/stored_values.hpp"

namespace hindsight::report {

namespace {

using cube::CnodeIndex;
using cube::MetricIndex;

cube::Aggregation aggregation(const cube::Report& report, MetricIndex metric) {
    return cube::aggregation_of(report.metrics()[metric].data_type);
}

// Rounding noise of a sum whose terms have both signs (in a difference,
// changes that cancel leave 6.6e-16 s) is 0 (cube::is_rounding_noise).
// Minima and maxima add nothing up, so they keep their value.
double settled(cube::Aggregation how, double total, double magnitude) {
    return how == cube::Aggregation::Sum && cube::is_rounding_noise(total, magnitude) ? 0.0 : total;
}

// Per call path, the stored values of `metric` over all locations (summed,
// or their minimum or maximum: cube::aggregate).
std::vector<double> row_sums(const cube::Report& report, MetricIndex metric) {
    std::vector<double> sums(report.cnodes().size(), 0.0);
    if (!report.has_values(metric)) return sums;
    const cube::Aggregation how = aggregation(report, metric);
    for (CnodeIndex c = 0; c < sums.size(); ++c) {
        double magnitude = 0.0;
        for (cube::LocationIndex l = 0; l < report.locations().size(); ++l) {
            const double v = report.value(metric, c, l);
            sums[c] = cube::aggregate(how, sums[c], v);
            magnitude += std::fabs(v);
        }
        sums[c] = settled(how, sums[c], magnitude);
    }
    return sums;
}

// Each call path with all its callees. A parent always has a smaller index
// than its children (Report::add_cnode), so one backward sweep suffices.
std::vector<double> subtree_sums(const cube::Report& report, cube::Aggregation how, std::vector<double> sums) {
    std::vector<double> magnitude(sums.size());
    for (std::size_t c = 0; c < sums.size(); ++c) magnitude[c] = std::fabs(sums[c]);
    for (CnodeIndex c = static_cast<CnodeIndex>(sums.size()); c-- > 0;) {
        sums[c] = settled(how, sums[c], magnitude[c]);
        if (const CnodeIndex parent = report.cnodes()[c].parent; parent != cube::kNone) {
            sums[parent] = cube::aggregate(how, sums[parent], sums[c]);
            magnitude[parent] += magnitude[c];
        }
    }
    return sums;
}

double overall(cube::Aggregation how, const std::vector<double>& values) {
    double result = 0.0, magnitude = 0.0;
    for (const double v : values) {
        result = cube::aggregate(how, result, v);
        magnitude += std::fabs(v);
    }
    return settled(how, result, magnitude);
}

// Each metric's depth in the metric tree, in one pass (parents come first).
std::vector<int> metric_depths(const cube::Report& report) {
    std::vector<int> depth(report.metrics().size(), 0);
    for (MetricIndex m = 0; m < depth.size(); ++m)
        if (report.metrics()[m].parent != cube::kNone) depth[m] = depth[report.metrics()[m].parent] + 1;
    return depth;
}

std::string path_name(const cube::CallPathNames& names, CnodeIndex c, PathNames how) {
    return how == PathNames::Abbreviated ? names.abbreviated(c) : names.full(c);
}

// Sort key that puts NaN (a damaged file, which the reader warns about)
// last, so that the order stays a strict weak one.
double nan_last(double v) { return std::isnan(v) ? -HUGE_VAL : v; }

// The `top` (0: all) indices whose value `keep` accepts, by descending
// `key`; ties in index order.
template <typename Keep, typename Key>
std::vector<std::uint32_t> ranked(const std::vector<double>& values, std::size_t top, Keep keep, Key key) {
    std::vector<std::uint32_t> order;
    for (std::uint32_t i = 0; i < values.size(); ++i)
        if (keep(values[i])) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(values[a]) > key(values[b]); });
    if (top > 0 && order.size() > top) order.resize(top);
    return order;
}

// The `top` indices of largest value (non-zero only), largest first.
std::vector<std::uint32_t> largest(const std::vector<double>& values, std::size_t top) {
    return ranked(values, top, [](double v) { return v != 0.0; }, nan_last);
}

// The `top` largest increases and the `top` largest decreases, the larger
// change first: ranked by signed value alone, a difference would list only
// what grew, however much else shrank.
std::vector<std::uint32_t> largest_changes(const std::vector<double>& values, std::size_t top) {
    std::vector<std::uint32_t> order = ranked(values, top, [](double v) { return !(v <= 0.0); }, nan_last);
    const std::vector<std::uint32_t> decreases = ranked(values, top, [](double v) { return v < 0.0; },
                                                        [](double v) { return -v; });
    order.insert(order.end(), decreases.begin(), decreases.end());
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const double change_a = nan_last(std::fabs(values[a])), change_b = nan_last(std::fabs(values[b]));
        return change_a != change_b ? change_a > change_b : a < b;  // ties in index order
    });
    return order;
}

}  // namespace

std::string call_path_text(const cube::Report& report, CnodeIndex cnode) {
    return cube::CallPathNames(report).full(cnode);
}

CnodeIndex find_call_path(const cube::Report& report, const std::string& text) {
    return cube::CallPathNames(report).find(text);
}

Table metric_overview(const cube::Report& any, const Overview& how) {
    cube::Report copy;
    const cube::Report& report = stored_values(any, copy);
    const cube::CallPathNames names(report);
    const std::vector<int> depths = metric_depths(report);
    Table table{{"metric", "call path", "value", "unit"}, {}};
    for (MetricIndex m = 0; m < report.metrics().size(); ++m) {
        const cube::Metric& metric = report.metrics()[m];
        const int depth = depths[m];
        const auto note = how.notes.find(metric.unique_name);
        const std::string all = note == how.notes.end() ? "(all)" : "(all; " + note->second + ")";
        if (!report.computed(m)) {
            // Its values are not in the report: say so rather than print zeros.
            table.rows.push_back({{metric.unique_name, all, std::string("not computed"), metric.unit}, depth});
            continue;
        }
        const std::vector<double> sums = row_sums(report, m);
        const double total = overall(aggregation(report, m), sums);
        const std::vector<std::uint32_t> shown = how.changes ? largest_changes(sums, how.top) : largest(sums, how.top);
        // A change can move time between call paths and leave the total
        // as it was.
        if (total == 0.0 && (!how.changes || shown.empty())) continue;
        table.rows.push_back({{metric.unique_name, all, total, metric.unit}, depth});
        for (const CnodeIndex c : shown)
            table.rows.push_back({{metric.unique_name, path_name(names, c, how.names), sums[c], metric.unit}, depth});
    }
    return table;
}

Table metric_overview(const cube::Report& report, std::size_t top, PathNames names) {
    return metric_overview(report, Overview{top, names, false, {}});
}

Table call_tree_table(const cube::Report& any, MetricIndex metric, std::size_t top, PathNames how) {
    cube::Report copy;
    const cube::Report& report = stored_values(any, copy);
    const cube::CallPathNames names(report);
    Table table{{"call path", "inclusive", "exclusive"}, {}};
    const std::vector<double> exclusive = row_sums(report, metric);
    const std::vector<double> inclusive = subtree_sums(report, aggregation(report, metric), exclusive);
    if (top > 0) {
        for (const CnodeIndex c : largest(exclusive, top))
            table.rows.push_back({{path_name(names, c, how), inclusive[c], exclusive[c]}, 0});
        return table;
    }
    // A subtree is left out when all of it is zero, not when its values
    // cancel (the changes of a difference).
    std::vector<double> magnitude(exclusive.size());
    std::transform(exclusive.begin(), exclusive.end(), magnitude.begin(), [](double v) { return std::fabs(v); });
    magnitude = subtree_sums(report, cube::Aggregation::Sum, std::move(magnitude));
    // Depth-first, children in their order; every row names its whole path
    // (scripts need no context), the text form indents it by its depth.
    std::vector<std::pair<CnodeIndex, int>> stack;
    for (CnodeIndex c = static_cast<CnodeIndex>(report.cnodes().size()); c-- > 0;)
        if (report.cnodes()[c].parent == cube::kNone) stack.emplace_back(c, 0);
    while (!stack.empty()) {
        const auto [c, depth] = stack.back();
        stack.pop_back();
        if (magnitude[c] == 0.0) continue;
        table.rows.push_back({{path_name(names, c, how), inclusive[c], exclusive[c]}, depth});
        const std::vector<CnodeIndex> children = report.cnode_children(c);
        for (auto k = children.rbegin(); k != children.rend(); ++k) stack.emplace_back(*k, depth + 1);
    }
    return table;
}

Table rank_table(const cube::Report& any, MetricIndex metric, CnodeIndex cnode, std::size_t top) {
    cube::Report copy;
    const cube::Report& report = stored_values(any, copy);
    // The call path and its callees, marked in one forward sweep.
    std::vector<bool> in_subtree(report.cnodes().size(), false);
    in_subtree[cnode] = true;
    for (CnodeIndex c = cnode + 1; c < report.cnodes().size(); ++c)
        in_subtree[c] = report.cnodes()[c].parent != cube::kNone && in_subtree[report.cnodes()[c].parent];
    const auto& groups = report.location_groups();
    const auto& locations = report.locations();
    // Per location first, then per rank over its threads.
    std::vector<double> exclusive(locations.size(), 0.0), inclusive(locations.size(), 0.0);
    std::vector<double> magnitude(locations.size(), 0.0);
    const cube::Aggregation how = aggregation(report, metric);
    if (report.has_values(metric))
        for (cube::LocationIndex l = 0; l < locations.size(); ++l) {
            exclusive[l] = report.value(metric, cnode, l);
            for (CnodeIndex c = 0; c < in_subtree.size(); ++c)
                if (in_subtree[c]) {
                    inclusive[l] = cube::aggregate(how, inclusive[l], report.value(metric, c, l));
                    magnitude[l] += std::fabs(report.value(metric, c, l));
                }
        }
    std::vector<double> rank_exclusive(groups.size(), 0.0), rank_inclusive(groups.size(), 0.0);
    std::vector<double> rank_magnitude(groups.size(), 0.0);
    std::vector<std::vector<cube::LocationIndex>> threads(groups.size());
    for (cube::LocationIndex l = 0; l < locations.size(); ++l) {
        const auto g = locations[l].group;
        rank_exclusive[g] = cube::aggregate(how, rank_exclusive[g], exclusive[l]);
        rank_inclusive[g] = cube::aggregate(how, rank_inclusive[g], inclusive[l]);
        rank_magnitude[g] += magnitude[l];
        threads[g].push_back(l);
        inclusive[l] = settled(how, inclusive[l], magnitude[l]);
    }
    for (std::size_t g = 0; g < groups.size(); ++g)
        rank_inclusive[g] = settled(how, rank_inclusive[g], rank_magnitude[g]);
    std::vector<std::uint32_t> order(groups.size());
    std::iota(order.begin(), order.end(), 0u);
    if (top > 0) order = largest(rank_exclusive, top);
    // A report of single-threaded ranks keeps its plain table; with threads
    // (a hybrid run) each rank is followed by its threads, as the system
    // tree has them: rank -> thread.
    const bool has_threads = std::any_of(threads.begin(), threads.end(), [](const auto& t) { return t.size() > 1; });
    if (!has_threads) {
        Table table{{"rank", "exclusive", "inclusive"}, {}};
        for (const std::uint32_t g : order)
            table.rows.push_back({{static_cast<long long>(groups[g].rank), rank_exclusive[g], rank_inclusive[g]}, 0});
        return table;
    }
    Table table{{"location", "rank", "thread", "exclusive", "inclusive"}, {}};
    for (const std::uint32_t g : order) {
        const auto rank = static_cast<long long>(groups[g].rank);
        table.rows.push_back({{groups[g].name, rank, std::string("(all)"), rank_exclusive[g], rank_inclusive[g]}, 0});
        for (const cube::LocationIndex l : threads[g])
            table.rows.push_back(
                {{locations[l].name, rank, static_cast<long long>(locations[l].rank), exclusive[l], inclusive[l]}, 1});
    }
    return table;
}

}  // namespace hindsight::report
