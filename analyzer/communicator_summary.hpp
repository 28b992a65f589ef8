// The summary's sections on the communication structure: the communicators
// that took most time, with their size, topology, waiting, bytes and their
// most costly operation; and the placement advice.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <vector>

#include <string>

#include "analyzer/communication_structure.hpp"

namespace hindsight::analyzer {

// `table` largest first (communicator_table()); percentages of
// `allocation_time`, the summary's basis.
void print_communicators(std::ostream& out, const std::vector<CommunicatorLine>& table, double allocation_time,
                         std::size_t limit = 5);

// The bytes between nodes of the three mappings; `machine_file` is where the
// advised one was written.
void print_placement(std::ostream& out, const CommunicationStructure& structure, const std::string& machine_file);

}  // namespace hindsight::analyzer
