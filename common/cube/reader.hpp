// Reads a .cubex report back: everything write_cubex() produces, and the
// CUBE4 reports of Scalasca, Score-P and CubeLib: every value type at its
// own width (value_types.hpp), compressed data, metrics stored call-tree
// exclusive or inclusive (inclusive values come back exclusive, like all
// others), derived metrics (read as not computed: Report::computed()), and
// CubeLib 4.8's wrong tar checksums (doc/cube-format.md, "Reading").
#pragma once

#include <filesystem>
#include <string>

#include "common/cube/report.hpp"

namespace hindsight::cube {

// The values come back as stored, i.e. value_kind() is MetricInclusive; call
// Report::to_own_shares() to recover what the analyses wrote. Indices follow
// the file's order (depth-first), which need not be the order the written
// report was built in: look things up by name (query.hpp). Malformed,
// truncated or hostile input throws hindsight::Error naming `path` and the
// problem. What is readable but suspect -- callees exceeding their caller in
// a call-tree-inclusive metric, NaN or infinite values -- is kept as the file
// has it and described in Report::warnings().
Report read_cubex(const std::filesystem::path& path);

// The same for a report already in memory; `origin` names it in errors.
Report parse_cubex(std::string bytes, const std::string& origin);

}  // namespace hindsight::cube
