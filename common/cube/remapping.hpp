// remapping.spec, the member of a .cubex report that CubeLib's cube_remap2
// (run by `scalasca -examine`) turns a report into its final form with. A
// report without one is refused by that tool. Ours keeps the metric tree as
// it is: every metric is copied from the report by its unique name, since
// the report already stores what Scalasca's specification derives.
#pragma once

#include <string>

#include "common/cube/numbering.hpp"
#include "common/cube/report.hpp"

namespace hindsight::cube {

// The specification in the syntax of Scalasca's (a <doc> with the report's
// documentation mirrors, then the <metrics> tree), metrics in file order.
std::string write_remapping_spec(const Report& report, const FileNumbering& numbering);

}  // namespace hindsight::cube
