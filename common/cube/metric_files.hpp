// The two binary members CUBE stores per metric:
//
//   <id>.index  "CUBEX.INDEX", uint32 1 (its byte order marks the order of
//               every number in both files), uint16 version 0, uint8 index
//               format (1 = sparse, 3 = dense); a sparse index continues
//               with uint32 N and N ascending uint32 row numbers.
//   <id>.data   "CUBEX.DATA", then one row per indexed call path, each row
//               one value per location in location-id order; or
//               "ZCUBEX.DATA", uint64 K, K x (uint64 uncompressed position,
//               uint64 compressed position, uint64 compressed size), then K
//               zlib streams that inflate, one after the other, to the rows.
//
// A row number is the call path's position in depth-first preorder of the
// call tree (for call-tree-exclusive metrics); rows not listed are all zero.
// We write little-endian sparse indices listing the non-zero rows only, as
// Scalasca does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/cube/report.hpp"
#include "common/cube/value_types.hpp"

namespace hindsight::cube {

// The value type's name in <dtype> (reading: value_types.hpp).
std::string_view data_type_name(DataType type);

struct MetricRows {
    std::vector<std::uint32_t> rows;  // ascending row numbers
    std::vector<double> values;       // rows.size() x location count
};

std::string encode_index(const std::vector<std::uint32_t>& rows);
std::string encode_data(DataType type, const std::vector<double>& values);

// Decoding checks every size and bound and throws hindsight::Error without a
// file name; the caller adds which member it was.
// Values of an Opaque type are not read, nor inflated: they come back
// without rows (all zeros).
MetricRows decode_metric(std::string_view index, std::string_view data, const ValueType& type, std::size_t row_count,
                         std::size_t location_count);

}  // namespace hindsight::cube
