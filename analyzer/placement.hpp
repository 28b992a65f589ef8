// Placement advice (after seed 002): a mapping of ranks to nodes that keeps
// heavily communicating ranks on the same node, found by a graph partitioner
// (METIS) on the communication matrix, compared with the two mappings a
// launcher makes by itself: by rank (block: ranks 0..c-1 on the first node)
// and round-robin (rank r on node r mod nodes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyses/communication/communication_matrix.hpp"

namespace hindsight::analyzer {

struct Mapping {
    std::string name;               // "block", "round-robin", "advised"
    std::vector<int> node_of_rank;  // node index per world rank
    std::uint64_t inter_node_bytes = 0;
};

struct PlacementAdvice {
    int ranks = 0;
    int cores_per_node = 0;
    int nodes = 0;                  // ceil(ranks / cores_per_node)
    std::uint64_t total_bytes = 0;  // all traffic between different ranks
    std::vector<Mapping> mappings;  // block, round-robin, advised
};

// The bytes of `cells` (point-to-point and collective) between ranks on
// different nodes.
std::uint64_t inter_node_bytes(const std::vector<analyses::TrafficCell>& cells, const std::vector<int>& node_of_rank);

// Ranks on nodes of `cores_per_node` (>= 1) cores: every node holds at most
// that many ranks, and the bytes between nodes are as few as the
// partitioner finds. `cells` may list a pair in both directions.
std::vector<int> partition_ranks(int ranks, const std::vector<analyses::TrafficCell>& cells, int cores_per_node);

// The three mappings with their inter-node bytes; where block or
// round-robin is as good as the partitioner's mapping (in that order), the
// advised mapping is that one. Throws hindsight::Error
// for a cell naming a rank outside 0..ranks-1 or for cores_per_node < 1.
PlacementAdvice advise_placement(int ranks, const std::vector<analyses::TrafficCell>& cells, int cores_per_node);

// A machine file for MPICH's launcher (mpiexec -f FILE) that starts rank r on
// the node `mapping.node_of_rank[r]`: lines "host:count" in rank order,
// where consecutive ranks on one node share a line. `hosts[k]` names node k.
std::string machine_file(const Mapping& mapping, const std::vector<std::string>& hosts);

}  // namespace hindsight::analyzer
