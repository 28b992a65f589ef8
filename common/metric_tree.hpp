// The metric tree of Hindsight's reports. Identifiers (CUBE uniq_name) and
// the tree follow Scalasca's, so that users' scripts and habits carry over
// and both tools compare metric by metric on the same trace. As in Scalasca,
// the performance-impact metrics hang below two grouping metrics
// (performance_impact, performance_impact_criticalpath) of their own rather
// than below the critical path: each impact sums to a share of the whole
// allocation time, which is no part of the critical path's wall-clock time.
//
// Values an analysis records are each metric's *own share*: exclusive along
// the metric tree (a parent holds only what none of its children holds) and
// along the call tree. The report writer adds children into parents, as CUBE
// stores them.
//
// The metrics are declared once, as rows in metric_rows.def; the enum and
// the table below are both expanded from them, so that they cannot drift
// apart. The declaration lives in common/ because the report layer names
// metrics too (report/findings.cpp), and may read nothing above common/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hindsight::metrics {

enum class Metric : std::uint16_t {
#define HINDSIGHT_METRIC(id, parent, unique_name, display_name, unit, description) id,
#include "common/metric_rows.def"
#undef HINDSIGHT_METRIC
    Count_,  // number of metrics; not a metric
};

inline constexpr std::size_t kMetricCount = static_cast<std::size_t>(Metric::Count_);

enum class Unit : std::uint8_t { Seconds, Occurrences, Bytes };

struct MetricInfo {
    Metric metric;
    std::optional<Metric> parent;
    std::string_view unique_name;   // Scalasca's identifier
    std::string_view display_name;
    Unit unit;
    std::string_view description;   // in our own words; doc/metrics.md says more
};

namespace metric_rows {

using M = Metric;
using enum Unit;
inline constexpr std::optional<Metric> kRoot{};

// Every metric, parents before children, in the order of the report.
inline constexpr std::array<MetricInfo, kMetricCount> kTable{{
#define HINDSIGHT_METRIC(id, parent, unique_name, display_name, unit, description) \
    {M::id, parent, unique_name, display_name, unit, description},
#include "common/metric_rows.def"
#undef HINDSIGHT_METRIC
}};

}  // namespace metric_rows

// What the rows must satisfy for the report to be a tree: each parent
// precedes its children (the report writer adds children into parents in
// reverse order, and CUBE readers expect parents first), a parent measures
// in its children's unit, and no two metrics share an identifier or lack a
// name or description.
constexpr bool is_valid_tree(const auto& rows) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const MetricInfo& row = rows[i];
        if (static_cast<std::size_t>(row.metric) != i) return false;
        if (row.parent) {
            const auto parent = static_cast<std::size_t>(*row.parent);
            if (parent >= i || rows[parent].unit != row.unit) return false;
        }
        if (row.unique_name.empty() || row.display_name.empty() || row.description.empty()) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (rows[j].unique_name == row.unique_name) return false;
    }
    return true;
}
static_assert(is_valid_tree(metric_rows::kTable),
              "metric rows: parents first, in their parent's unit, identifiers unique, every text given");

constexpr const std::array<MetricInfo, kMetricCount>& metric_table() { return metric_rows::kTable; }

constexpr const MetricInfo& info(Metric m) { return metric_rows::kTable[static_cast<std::size_t>(m)]; }

constexpr std::optional<Metric> metric_by_name(std::string_view unique_name) {
    for (const MetricInfo& row : metric_rows::kTable)
        if (row.unique_name == unique_name) return row.metric;
    return std::nullopt;
}

}  // namespace hindsight::metrics
