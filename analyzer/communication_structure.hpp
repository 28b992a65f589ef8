// Everything the analyzer reports about how the program communicates: the
// profile per communicator, the rank-to-rank and node-to-node matrices and
// the placement advice, assembled on rank 0 from all ranks' shares.
#pragma once

#include <string>
#include <vector>

#include "analyses/communication/communication_matrix.hpp"
#include "analyses/communication/communicator_profile.hpp"
#include "analyzer/communicator_table.hpp"
#include "analyzer/node_layout.hpp"
#include "analyzer/placement.hpp"

namespace hindsight::analyzer {

struct CommunicationStructure {
    std::vector<CommunicatorLine> communicators;
    std::vector<analyses::TrafficCell> rank_matrix;  // sorted by (from, to)
    NodeLayout nodes;
    std::vector<analyses::TrafficCell> node_matrix;
    PlacementAdvice placement;
    bool cores_from_trace = true;      // or from --cores-per-node
    std::vector<std::string> hosts;    // names of the advised mapping's nodes
};

// `rows[r]` is rank r's row of the matrix; `cores_per_node` 0 takes the
// most ranks any node of the trace ran. Throws hindsight::Error (context
// `trace_path`) on communicators or cells that do not fit the trace.
CommunicationStructure communication_structure(const Definitions& defs, const analyses::CommunicatorProfile& profile,
                                               const std::vector<std::vector<analyses::TrafficCell>>& rows,
                                               int cores_per_node, const std::string& trace_path);

}  // namespace hindsight::analyzer
