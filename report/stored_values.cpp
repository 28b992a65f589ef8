#include "report/stored_values.hpp"

namespace hindsight::report {

const cube::Report& stored_values(const cube::Report& report, cube::Report& copy) {
    if (report.value_kind() == cube::ValueKind::MetricInclusive) return report;
    copy = report;
    copy.to_metric_inclusive();
    return copy;
}

}  // namespace hindsight::report
