// The reader's checks of the values it has read: turning call-tree-inclusive
// values exclusive, and saying where values are suspect -- a callee larger
// than its caller, values that are not finite numbers. Suspect values are
// kept as the file has them; the warnings name the metric, the call path
// and the rank (Report::warnings(), doc/report.md "Warnings").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/cube/call_paths.hpp"
#include "common/cube/report.hpp"

namespace hindsight::cube {

// Warnings of the file, at most kMaxWarnings lines and one more saying how
// many were left out: a damaged report could otherwise bury the terminal
// under one line per metric.
class Warnings {
public:
    static constexpr std::size_t kMaxWarnings = 10;
    explicit Warnings(std::string where) : where_(std::move(where)) {}
    void add(std::string problem);
    // Adds the lines to the report's warnings.
    void hand_to(Report& report);

private:
    std::string where_;
    std::vector<std::string> lines_;
    std::size_t left_out_ = 0;
};

// Call paths are named (CallPathNames, made when a warning first needs one)
// in `names`, which the reader shares between the metrics.
using NamesOnDemand = std::optional<CallPathNames>;

// Turns the values of `metric`, stored call-tree inclusive, exclusive.
void make_call_tree_exclusive(Report& report, MetricIndex metric, Warnings& warnings, NamesOnDemand& names);

// Warns when `metric` holds values that are not finite numbers.
void check_finite(const Report& report, MetricIndex metric, Warnings& warnings, NamesOnDemand& names);

}  // namespace hindsight::cube
