// The data a report page carries, as one byte string that the page's script
// decodes (report/page/report.js, function decodeData, reads this layout):
//
//   u32 n                      length of the structure
//   n bytes                    the structure, JSON (UTF-8): title, the names
//                              the findings look for (findings.hpp),
//                              attributes, metric tree, regions, call tree,
//                              system tree
//   per metric, in order:
//     u32 rows                 call paths with a non-zero value on some location
//     per row: u32 call path, u32 k (non-zero locations),
//              k x u32 location (only when k < number of locations),
//              k x f64 value
//
// Integers and doubles are little-endian. Values are stored as a CUBE file
// stores them: each metric including its sub-metrics, each call path
// without its callees. Only non-zero cells travel; a row non-zero on every
// location leaves out its location list.
#pragma once

#include <string>

#include "common/cube/report.hpp"

namespace hindsight::report {

// `report` may hold either value kind (common/cube/report.hpp).
std::string encode_page_data(const cube::Report& report, const std::string& title);

}  // namespace hindsight::report
