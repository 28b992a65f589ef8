// anchor.xml, the metadata member of a .cubex report: the metric tree, the
// regions and call tree, and the system tree, in the CUBE 4.4 syntax that
// CubeLib's parser accepts (it is strict about tag order: see anchor.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/cube/numbering.hpp"
#include "common/cube/report.hpp"
#include "common/cube/value_types.hpp"

namespace hindsight::cube {

// Every metric is written as call-tree EXCLUSIVE (as Scalasca writes its
// trace-analysis metrics) with the ids of `numbering`.
std::string write_anchor(const Report& report, const FileNumbering& numbering);

// What anchor.xml says, plus what the binary members need to be matched up.
struct Anchor {
    Report report;  // structure only; metrics, cnodes, ... in document order
    std::vector<std::uint32_t> metric_file_ids;     // per report metric
    // Per report metric: whether the file stores it call-tree INCLUSIVE (as
    // Scalasca stores "time"); the reader turns such values exclusive.
    std::vector<bool> call_tree_inclusive;
    std::vector<ValueType> value_types;             // per report metric, as <dtype> declares
    std::vector<bool> derived;                      // per report metric: derived (no values in the file)
    std::vector<std::uint32_t> location_columns;    // per report location
    // What the reader took but had to change (without a file name).
    std::vector<std::string> warnings;
};

// Throws hindsight::Error (without a file name) on anything our writer
// would not have produced or a CUBE reader would reject.
Anchor parse_anchor(std::string_view text);

}  // namespace hindsight::cube
