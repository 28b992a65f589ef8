// A call tree: each node is a call path, i.e. a region reached through the
// chain of its ancestors. Each rank builds its own tree while loading; the
// trees are then unified into one global tree whose node ids every rank
// shares (see merge()).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "common/definitions.hpp"

namespace hindsight {

using CallPathId = std::uint32_t;
inline constexpr CallPathId kNoCallPath = 0xffffffffu;

class CallTree {
public:
    struct Node {
        RegionId region = kNoId;
        CallPathId parent = kNoCallPath;
    };

    // The call path that `region` entered from `parent` forms; created on
    // first use. kNoCallPath as parent makes a root.
    CallPathId child(CallPathId parent, RegionId region);
    // The existing call path, or kNoCallPath.
    CallPathId find(CallPathId parent, RegionId region) const;

    std::size_t size() const { return nodes_.size(); }
    const Node& node(CallPathId id) const { return nodes_[id]; }
    const std::vector<Node>& nodes() const { return nodes_; }
    // Number of regions from the root to `id`, the root counting 1.
    std::size_t depth(CallPathId id) const;

    // Adds every path of `other` to this tree and returns, for each node id of
    // `other`, the id of the same path here. Ids already here do not change,
    // so merging trees one after the other yields a stable global numbering.
    std::vector<CallPathId> merge(const CallTree& other);

    // Flat form for sending a tree between ranks: (region, parent) pairs in
    // id order; parents always precede their children.
    std::vector<std::uint32_t> serialize() const;
    static CallTree deserialize(std::span<const std::uint32_t> flat);

private:
    static std::uint64_t key(CallPathId parent, RegionId region) {
        return (static_cast<std::uint64_t>(parent) << 32) | region;
    }
    std::vector<Node> nodes_;
    std::unordered_map<std::uint64_t, CallPathId> index_;
};

}  // namespace hindsight
