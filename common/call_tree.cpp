#include "common/call_tree.hpp"

#include "common/error.hpp"

namespace hindsight {

CallPathId CallTree::child(CallPathId parent, RegionId region) {
    const auto [it, inserted] = index_.try_emplace(key(parent, region), static_cast<CallPathId>(nodes_.size()));
    if (inserted) nodes_.push_back(Node{region, parent});
    return it->second;
}

CallPathId CallTree::find(CallPathId parent, RegionId region) const {
    const auto it = index_.find(key(parent, region));
    return it == index_.end() ? kNoCallPath : it->second;
}

std::size_t CallTree::depth(CallPathId id) const {
    std::size_t d = 0;
    for (; id != kNoCallPath; id = nodes_[id].parent) ++d;
    return d;
}

std::vector<CallPathId> CallTree::merge(const CallTree& other) {
    std::vector<CallPathId> mapping(other.size(), kNoCallPath);
    for (CallPathId id = 0; id < other.size(); ++id) {
        const Node& n = other.node(id);
        const CallPathId parent = n.parent == kNoCallPath ? kNoCallPath : mapping[n.parent];
        mapping[id] = child(parent, n.region);
    }
    return mapping;
}

std::vector<std::uint32_t> CallTree::serialize() const {
    std::vector<std::uint32_t> flat;
    flat.reserve(2 * nodes_.size());
    for (const Node& n : nodes_) {
        flat.push_back(n.region);
        flat.push_back(n.parent);
    }
    return flat;
}

CallTree CallTree::deserialize(std::span<const std::uint32_t> flat) {
    if (flat.size() % 2 != 0) throw Error("", "call tree data has an odd number of entries");
    CallTree tree;
    for (std::size_t i = 0; i < flat.size(); i += 2) {
        const CallPathId parent = flat[i + 1];
        if (parent != kNoCallPath && parent >= tree.size())
            throw Error("", "call tree data names a parent before the parent itself");
        const CallPathId id = tree.child(parent, flat[i]);
        if (id != i / 2) throw Error("", "call tree data holds the same call path twice");
    }
    return tree;
}

}  // namespace hindsight
