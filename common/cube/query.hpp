// Looking values up by name rather than by index: by metric unique name,
// call path (region names from the root down) and MPI rank (the rank of a
// location group; its threads are summed). "Sum" means cube::aggregate: the
// minimum or maximum for MinDouble and MaxDouble metrics. Meant for tests, summaries and
// comparisons; every function reads the values as the report holds them
// (see Report::value_kind()). Unknown names, paths or ranks throw
// std::out_of_range saying which.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::cube {

using CallPath = std::vector<std::string>;

// One call path on one rank.
double value_at(const Report& report, std::string_view metric, const CallPath& path, std::int64_t rank);
// One call path, all ranks.
double sum_over_ranks(const Report& report, std::string_view metric, const CallPath& path);
// All call paths, one rank.
double sum_over_call_paths(const Report& report, std::string_view metric, std::int64_t rank);
// Everything.
double total(const Report& report, std::string_view metric);
// A call path together with all its callees (call-tree inclusive), on one
// rank or, without a rank, on all.
double subtree_sum(const Report& report, std::string_view metric, const CallPath& path,
                   std::optional<std::int64_t> rank = std::nullopt);

}  // namespace hindsight::cube
