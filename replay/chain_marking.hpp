// Which nodes lie on a chain that runs through the nodes of all ranks (or on
// one of several chains that share no node),
// found in a number of exchange rounds that grows with the logarithm of the
// chain's length (pointer doubling), not with its length: a chain followed
// link by link would cost a hand-over per link.
//
// Every rank has nodes 0..n-1 and knows each one's successor (a node on any
// rank, or the end). From J_0 = successor, level k+1 is J_{k+1}(v) =
// J_k(J_k(v)) (v's successor 2^(k+1) links on), one request/answer per
// level, until no level-k link leads anywhere. Then the chain's first node
// is marked, and for k from the top level down every marked node v marks
// J_k(v): after level k the marks are the chain's nodes at distances that
// are multiples of 2^k, so after level 0 all of them.
//
// Rounds: about 3 per level for the doubling and 1 per level for the
// marking, with log2(longest chain) + 1 levels. Memory: 8 bytes per node
// and level.
//
// Every round costs a scheduler hand-over of every rank where ranks share
// cores, so a chain whose nodes of all ranks together fit in a few tens of
// megabytes is marked in two rounds instead: rank 0 gathers all successors
// and follows the chain itself (kGatheredChainNodes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "replay/exchange.hpp"

namespace hindsight::replay {

// A node: its rank in the high half, its index on that rank in the low one.
using ChainLink = std::uint64_t;
inline constexpr ChainLink kChainEnd = ~ChainLink{0};

inline ChainLink chain_link(int rank, std::uint32_t index) {
    return (static_cast<ChainLink>(static_cast<std::uint32_t>(rank)) << 32) | index;
}
inline int link_rank(ChainLink link) { return static_cast<int>(link >> 32); }
inline std::uint32_t link_index(ChainLink link) { return static_cast<std::uint32_t>(link); }

// Up to this many nodes over all ranks (8 bytes each on rank 0), rank 0
// follows the chain; above, pointer doubling does.
inline constexpr std::uint64_t kGatheredChainNodes = std::uint64_t{1} << 22;

struct ChainMarks {
    std::vector<bool> marked;   // by this rank's node index
    std::uint64_t nodes = 0;    // all ranks' nodes
    std::uint32_t levels = 0;   // doubling levels used
    bool gathered = false;      // rank 0 followed the chain instead
};

// Collective over all ranks of `exchange`. `successors[i]`: the successor of
// this rank's node i, or kChainEnd. `first`: the chain's first node on the
// one rank that knows it, kChainEnd on the others (and on all for an empty
// chain). A link to a node its rank does not have, and successors that run
// in a cycle, are errors of the input `where` names.
// Rank 0 follows the chain where all ranks together have at most
// `gather_up_to` nodes.
ChainMarks mark_chain(Exchange& exchange, std::span<const ChainLink> successors, ChainLink first,
                      const std::string& where, std::uint64_t gather_up_to = kGatheredChainNodes);
// The same for several chains that share no node, in the same rounds:
// `firsts` holds the first nodes this rank knows (each chain's on one rank).
ChainMarks mark_chains(Exchange& exchange, std::span<const ChainLink> successors, std::span<const ChainLink> firsts,
                       const std::string& where, std::uint64_t gather_up_to = kGatheredChainNodes);

}  // namespace hindsight::replay
