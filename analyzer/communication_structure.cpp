#include "analyzer/communication_structure.hpp"

#include "common/error.hpp"

namespace hindsight::analyzer {

CommunicationStructure communication_structure(const Definitions& defs, const analyses::CommunicatorProfile& profile,
                                               const std::vector<std::vector<analyses::TrafficCell>>& rows,
                                               int cores_per_node, const std::string& trace_path) {
    CommunicationStructure s;
    s.communicators = communicator_table(defs, profile, trace_path);
    const int ranks = defs.mpi_rank_count();
    for (const auto& row : rows)
        for (const analyses::TrafficCell& c : row) {
            if (c.from < 0 || c.from >= ranks || c.to < 0 || c.to >= ranks)
                throw Error(trace_path, "a message between ranks " + std::to_string(c.from) + " and " +
                                            std::to_string(c.to) + ", outside the trace's " + std::to_string(ranks) +
                                            " ranks");
            s.rank_matrix.push_back(c);
        }
    s.nodes = node_layout(defs);
    s.node_matrix = node_matrix(s.rank_matrix, s.nodes);
    s.cores_from_trace = cores_per_node == 0;
    const int cores = s.cores_from_trace ? s.nodes.most_ranks_on_a_node : cores_per_node;
    try {
        s.placement = advise_placement(ranks, s.rank_matrix, cores);
    } catch (const Error& e) {
        throw Error(trace_path, e.problem());
    }
    // The trace's own node names where there are enough, in their order.
    for (int n = 0; n < s.placement.nodes; ++n)
        s.hosts.push_back(static_cast<std::size_t>(n) < s.nodes.names.size() && s.nodes.names.size() >= static_cast<std::size_t>(s.placement.nodes)
                              ? s.nodes.names[static_cast<std::size_t>(n)]
                              : "node" + std::to_string(n));
    return s;
}

}  // namespace hindsight::analyzer
