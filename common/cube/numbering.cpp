#include "common/cube/numbering.hpp"

#include <algorithm>

namespace hindsight::cube {

namespace {

template <typename T, typename ParentOf>
std::vector<std::uint32_t> parents_of(const std::vector<T>& items, ParentOf parent_of) {
    std::vector<std::uint32_t> parents;
    parents.reserve(items.size());
    for (const T& item : items) parents.push_back(parent_of(item));
    return parents;
}

std::vector<std::uint32_t> inverse(const std::vector<std::uint32_t>& order) {
    std::vector<std::uint32_t> inv(order.size(), kNone);
    for (std::uint32_t i = 0; i < order.size(); ++i) inv[order[i]] = i;
    return inv;
}

}  // namespace

namespace {

struct Forest {
    std::vector<std::vector<std::uint32_t>> children;
    std::vector<std::uint32_t> roots;
};

// Children lists in index order.
Forest forest_of(const std::vector<std::uint32_t>& parents) {
    Forest f{std::vector<std::vector<std::uint32_t>>(parents.size()), {}};
    for (std::uint32_t i = 0; i < parents.size(); ++i) {
        if (parents[i] == kNone) f.roots.push_back(i);
        else f.children[parents[i]].push_back(i);
    }
    return f;
}

}  // namespace

std::vector<std::uint32_t> preorder(const std::vector<std::uint32_t>& parents) {
    // An explicit stack: call trees can be far deeper than the machine
    // stack would allow recursion for.
    const Forest f = forest_of(parents);
    std::vector<std::uint32_t> order;
    order.reserve(parents.size());
    std::vector<std::uint32_t> stack(f.roots.rbegin(), f.roots.rend());
    while (!stack.empty()) {
        const std::uint32_t node = stack.back();
        stack.pop_back();
        order.push_back(node);
        stack.insert(stack.end(), f.children[node].rbegin(), f.children[node].rend());
    }
    return order;
}

std::vector<std::uint32_t> siblings_first_order(const std::vector<std::uint32_t>& parents) {
    const Forest f = forest_of(parents);
    std::vector<std::uint32_t> order;
    order.reserve(parents.size());
    for (const std::uint32_t root : f.roots) {
        order.push_back(root);
        std::vector<std::uint32_t> stack{root};
        while (!stack.empty()) {
            const std::uint32_t node = stack.back();
            stack.pop_back();
            order.insert(order.end(), f.children[node].begin(), f.children[node].end());
            stack.insert(stack.end(), f.children[node].rbegin(), f.children[node].rend());
        }
    }
    return order;
}

FileNumbering number_for_file(const Report& report) {
    FileNumbering n;
    n.metrics = preorder(parents_of(report.metrics(), [](const Metric& m) { return m.parent; }));
    n.cnodes = preorder(parents_of(report.cnodes(), [](const Cnode& c) { return c.parent; }));
    n.system_nodes = preorder(parents_of(report.system_nodes(), [](const SystemNode& s) { return s.parent; }));
    // Buckets keep this linear in the number of processes and threads.
    std::vector<std::vector<LocationGroupIndex>> groups_of(report.system_nodes().size());
    for (LocationGroupIndex g = 0; g < report.location_groups().size(); ++g)
        groups_of[report.location_groups()[g].parent].push_back(g);
    std::vector<std::vector<LocationIndex>> locations_of(report.location_groups().size());
    for (LocationIndex l = 0; l < report.locations().size(); ++l)
        locations_of[report.locations()[l].group].push_back(l);
    // Processes and threads appear by rank, whatever order they were added in.
    const auto by_rank = [](const auto& items) {
        return [&items](std::uint32_t a, std::uint32_t b) { return items[a].rank < items[b].rank; };
    };
    for (auto& groups : groups_of) std::stable_sort(groups.begin(), groups.end(), by_rank(report.location_groups()));
    for (auto& locations : locations_of)
        std::stable_sort(locations.begin(), locations.end(), by_rank(report.locations()));
    for (const SystemNodeIndex node : n.system_nodes) {
        for (const LocationGroupIndex g : groups_of[node]) {
            n.location_groups.push_back(g);
            n.locations.insert(n.locations.end(), locations_of[g].begin(), locations_of[g].end());
        }
    }
    n.metric_id = inverse(n.metrics);
    n.cnode_id = inverse(n.cnodes);
    n.system_node_id = inverse(n.system_nodes);
    n.location_group_id = inverse(n.location_groups);
    n.location_id = inverse(n.locations);
    return n;
}

}  // namespace hindsight::cube
