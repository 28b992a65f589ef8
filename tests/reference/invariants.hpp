// Relations every Hindsight report must satisfy whatever the trace, checked
// on the values as the .cubex file stores them (each metric including its
// sub-metrics, call paths exclusive). Shared by the check_invariants tool and
// its unit test.
//
//   delay costs      per wait-state pattern with delay metrics, short-term
//                    (its own share) plus long-term delay costs, over all call
//                    paths and ranks, equal the pattern's waiting time; so
//                    do OpenMP barrier delay costs and the barrier waits,
//                    and idleness delay costs and the idle threads' own
//                    share (without limited parallelism)
//   direct+indirect  direct plus indirect Late Sender (Late Receiver) time
//                    equals Late Sender (Late Receiver) time, in every
//                    [call path, rank] cell and in total
//   propagating      propagating Late Sender (Late Receiver) time is at most
//                    Late Sender (Late Receiver) time, per cell and in total
//   sub-metrics      in every cell every metric's own share (its value less
//                    its sub-metrics') is >= 0: the Cube browser shows
//                    nothing negative
//   critical path    (only if a length is given) critical_path summed over
//                    all cells equals the length
//
// A check runs only where the report defines the metrics it names. Reports
// made with --no-rootcause or --no-critical-path lack the values of those
// analyses and fail the checks that need them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/cube/report.hpp"

namespace reference {

struct Violation {
    std::string invariant;  // the name in the list above, e.g. "delay costs"
    std::string detail;     // where, and the values that disagree
};

struct InvariantOptions {
    std::optional<double> critical_path_length;  // seconds
};

// Every violation found; empty if all invariants hold. A report of own
// shares (built in memory) is checked as it would be stored.
std::vector<Violation> check_invariants(const hindsight::cube::Report& report, const InvariantOptions& options = {});

}  // namespace reference
