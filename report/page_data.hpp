// The data a report page carries, as one byte string that the page's script
// decodes (report/page/report.js, function decodeData, reads this layout):
//
//   u32 n                      length of the structure (a multiple of 4)
//   n bytes                    the structure, JSON (UTF-8, padded with
//                              spaces): title, the names the findings look
//                              for (findings.hpp), attributes, metric tree,
//                              regions, call tree, system tree, the
//                              reader's warnings
//   per metric, in order:
//     u32 rows                 call paths with a non-zero value on some location
//     rows x u32               those call paths, ascending
//     rows x u32               each row's number of non-zero locations, k
//     u32 m                    the number of locations listed next
//     m x u32                  the non-zero locations of each row with
//                              k < number of locations, row after row
//     8 x (sum of k) bytes     the values (f64), row after row, as byte
//                              planes: the first byte of every value, then
//                              the second, ...
//
// Integers and doubles are little-endian; the u32 arrays start at multiples
// of 4, so that the page's script reads them in place as typed arrays. The
// byte planes put the similar bytes of the values (signs, exponents) side
// by side, where gzip finds them: the benchmark's page is 14 % smaller so,
// for about 0.1 s more to open it. Values are stored as a
// CUBE file stores them: each metric including its sub-metrics, each call
// path without its callees. Only non-zero cells travel; a row non-zero on
// every location leaves out its location list.
#pragma once

#include <string>

#include "common/cube/report.hpp"

namespace hindsight::report {

// `report` may hold either value kind (common/cube/report.hpp).
std::string encode_page_data(const cube::Report& report, const std::string& title);

}  // namespace hindsight::report
