#include "tests/support/report_cells.hpp"

#include <vector>

namespace report_cells {

using namespace hindsight::cube;

std::string call_path(const Report& report, CnodeIndex cnode) {
    std::vector<const std::string*> names;
    for (CnodeIndex c = cnode; c != kNone; c = report.cnodes()[c].parent)
        names.push_back(&report.regions()[report.cnodes()[c].region].name);
    std::string path;
    for (auto name = names.rbegin(); name != names.rend(); ++name) path += (path.empty() ? "" : "/") + **name;
    return path;
}

std::map<std::int64_t, double> values_by_rank(const Report& report, MetricIndex metric, CnodeIndex cnode) {
    std::map<std::int64_t, double> by_rank;
    for (LocationIndex l = 0; l < report.locations().size(); ++l)
        by_rank[report.location_groups()[report.locations()[l].group].rank] += report.value(metric, cnode, l);
    return by_rank;
}

}  // namespace report_cells
