// Small helpers shared by the backward-analysis tests.
#pragma once

#include <initializer_list>

#include "analyses/metrics.hpp"
#include "tests/analyses/analysis_harness.hpp"

namespace hindsight::testing {

// Every pass, the backward analyses included.
inline constexpr analyses::AnalysisOptions kAllAnalyses{.critical_path = true, .root_cause = true};

// The metric including its sub-metrics (as the report shows it), summed
// over all call paths of `rank`.
inline double subtree_total(const AnalysisResults& r, analyses::Metric m, int rank) {
    double sum = r.total(m, rank);
    for (const analyses::MetricInfo& row : analyses::metric_table())
        if (row.parent == m) sum += subtree_total(r, row.metric, rank);
    return sum;
}

// The same summed over ranks 0..ranks-1.
inline double all_ranks(const AnalysisResults& r, analyses::Metric m, int ranks) {
    double sum = 0;
    for (int rank = 0; rank < ranks; ++rank) sum += subtree_total(r, m, rank);
    return sum;
}

// The metric's value (with sub-metrics) at call path `path`, summed over ranks.
inline double at_path(const AnalysisResults& r, analyses::Metric m, int ranks, std::string_view path) {
    double sum = 0;
    for (int rank = 0; rank < ranks; ++rank) sum += r.with_children(m, rank, path);
    return sum;
}

}  // namespace hindsight::testing
