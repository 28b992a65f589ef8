// The ids a .cubex file gives to metrics, call paths and the system tree.
//
// CubeLib lays the rows of a call-tree-exclusive metric out in depth-first
// preorder of the call tree, and its system tree is read in document order.
// Numbering every dimension in that same preorder makes each file id equal
// to the position a CUBE reader derives on its own, so rows, columns and ids
// can never disagree, whatever order the report was built in.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::cube {

// Depth-first preorder of a forest given as parent links (kNone = root);
// roots and siblings keep their index order. Parents must precede children.
std::vector<std::uint32_t> preorder(const std::vector<std::uint32_t>& parents);

// The order CubeLib lays out the rows of a call-tree-INCLUSIVE metric in: a
// root, then all children of a node together, the nodes taken depth-first
// (root; its children; the children of its first child; the children of
// that one's first child; ...).
std::vector<std::uint32_t> siblings_first_order(const std::vector<std::uint32_t>& parents);

struct FileNumbering {
    // file id -> report index, for each dimension.
    std::vector<MetricIndex> metrics;
    std::vector<CnodeIndex> cnodes;
    std::vector<SystemNodeIndex> system_nodes;
    std::vector<LocationGroupIndex> location_groups;
    std::vector<LocationIndex> locations;

    // report index -> file id.
    std::vector<std::uint32_t> metric_id;
    std::vector<std::uint32_t> cnode_id;
    std::vector<std::uint32_t> system_node_id;
    std::vector<std::uint32_t> location_group_id;
    std::vector<std::uint32_t> location_id;
};

// System tree order: a node, then its location groups (each with its
// locations), then its child nodes -- the order CUBE writers emit them in.
// Location groups of a node and locations of a group are ordered by rank.
FileNumbering number_for_file(const Report& report);

}  // namespace hindsight::cube
