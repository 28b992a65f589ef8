// The metric tree the analyses write: declared once, as rows, in
// common/metric_rows.def (common/metric_tree.hpp says why there), and named
// here as the analyses always have.
#pragma once

#include "common/metric_tree.hpp"

namespace hindsight::analyses {

using metrics::info;
using metrics::kMetricCount;
using metrics::Metric;
using metrics::metric_by_name;
using metrics::metric_table;
using metrics::MetricInfo;
using metrics::Unit;

}  // namespace hindsight::analyses
