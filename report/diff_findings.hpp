// What got worse and what got better between two runs: of the metrics the
// findings look at (findings.hpp: the time, the wait states, the critical
// path and its imbalance, the delay costs, the imbalance indicators), those
// whose total changed, largest change first, each with the call path and
// rank where it changed most in that direction. All of them are times, so
// more is worse.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::report {

struct Change {
    cube::MetricIndex metric = cube::kNone;
    double total = 0;                      // summed over call paths and ranks
    cube::CnodeIndex cnode = cube::kNone;  // where it changed most in the total's direction
    std::int64_t rank = -1;
    double value = 0;  // there
};

struct DiffFindings {
    std::vector<Change> worse;   // totals that grew, largest first
    std::vector<Change> better;  // totals that shrank, largest decrease first
};

// `difference` as difference() makes it (either value kind is accepted).
// Totals within a billionth of what they add up are no change.
DiffFindings diff_findings(const cube::Report& difference);

// "What got worse (AFTER − BEFORE):" and "What got better:", one line per
// metric: "  Late Sender: +1.5 sec, most at main/solve/MPI_Recv on rank 1 (+1.5 sec)".
void print_diff_findings(std::ostream& out, const cube::Report& difference, const DiffFindings& findings);

}  // namespace hindsight::report
