#include "analyzer/node_layout.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace hindsight::analyzer {

NodeLayout node_layout(const Definitions& defs) {
    NodeLayout layout;
    const int ranks = defs.mpi_rank_count();
    // Rank -> location id -> location group -> its system tree parent; one
    // table of location ids (100,000 ranks must not cost a search each).
    std::unordered_map<LocationId, LocationGroupId> group_of;
    for (const Location& l : defs.locations) group_of.emplace(l.id, l.group);
    std::vector<SystemTreeNodeId> tree_node(static_cast<std::size_t>(ranks), kNoId);
    for (int rank = 0; rank < ranks; ++rank) {
        const std::optional<LocationId> location = defs.location_of_rank(rank);
        const auto it = location ? group_of.find(*location) : group_of.end();
        if (it == group_of.end() || it->second >= defs.location_groups.size()) continue;
        tree_node[static_cast<std::size_t>(rank)] = defs.location_groups[it->second].system_tree_parent;
    }
    std::map<SystemTreeNodeId, int> index;
    std::vector<int> count;
    for (const SystemTreeNodeId t : tree_node) {
        auto [it, added] = index.emplace(t, static_cast<int>(layout.names.size()));
        if (added) {
            layout.names.push_back(t < defs.system_tree.size() ? defs.system_tree[t].name : "unknown");
            count.push_back(0);
        }
        layout.node_of_rank.push_back(it->second);
        ++count[static_cast<std::size_t>(it->second)];
    }
    layout.most_ranks_on_a_node = count.empty() ? 0 : *std::max_element(count.begin(), count.end());
    return layout;
}

std::vector<analyses::TrafficCell> node_matrix(const std::vector<analyses::TrafficCell>& cells, const NodeLayout& layout) {
    std::map<std::pair<int, int>, analyses::TrafficCell> pairs;
    for (const analyses::TrafficCell& c : cells) {
        const int from = layout.node_of_rank.at(static_cast<std::size_t>(c.from));
        const int to = layout.node_of_rank.at(static_cast<std::size_t>(c.to));
        analyses::TrafficCell& n = pairs[{from, to}];
        n.from = from;
        n.to = to;
        n.messages += c.messages;
        n.bytes += c.bytes;
        n.collective_bytes += c.collective_bytes;
    }
    std::vector<analyses::TrafficCell> out;
    for (const auto& [key, cell] : pairs) out.push_back(cell);
    return out;
}

}  // namespace hindsight::analyzer
