// The summary's section on communicators: those that took most time, with
// their size, topology, waiting, bytes and their most costly operation.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <vector>

#include "analyzer/communicator_table.hpp"

namespace hindsight::analyzer {

// `table` largest first (communicator_table()); percentages of
// `allocation_time`, the summary's basis.
void print_communicators(std::ostream& out, const std::vector<CommunicatorLine>& table, double allocation_time,
                         std::size_t limit = 5);

}  // namespace hindsight::analyzer
