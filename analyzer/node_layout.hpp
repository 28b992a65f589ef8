// Which node each rank of a trace ran on, from the trace's system tree (the
// parent of each rank's location group), and the communication matrix
// summed per pair of nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyses/communication/communication_matrix.hpp"
#include "common/definitions.hpp"

namespace hindsight::analyzer {

struct NodeLayout {
    std::vector<std::string> names;  // in order of their first rank
    std::vector<int> node_of_rank;   // index into names; world rank order
    int most_ranks_on_a_node = 0;
};

// Ranks whose system tree parent is unknown count as one node "unknown".
NodeLayout node_layout(const Definitions& defs);

// The matrix per pair of nodes (from, to as node indexes), intra-node
// traffic included, sorted by (from, to).
std::vector<analyses::TrafficCell> node_matrix(const std::vector<analyses::TrafficCell>& cells, const NodeLayout& layout);

}  // namespace hindsight::analyzer
