// Names of call paths: region names from the root down, joined by '/'.
//
// A name takes time in its depth, so naming every call path of a deep chain
// by its whole path is quadratic. The abbreviated form keeps the first and
// last few regions of a deep path and counts the ones left out; with each
// call path's depth and ancestor at the cut computed once (linear), it takes
// constant time whatever the depth.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::cube {

class CallPathNames {
public:
    // Regions kept at each end of an abbreviated path.
    static constexpr std::size_t kHead = 3;
    static constexpr std::size_t kTail = 6;

    explicit CallPathNames(const Report& report);

    // Regions from the root to `cnode` (1 for a root).
    std::size_t depth(CnodeIndex cnode) const { return depth_[cnode]; }
    // The whole path, e.g. "main/solve/MPI_Recv".
    std::string full(CnodeIndex cnode) const;
    // The whole path when it has at most kHead + kTail + 1 regions; else its
    // first kHead and last kTail regions around "…(N more)…".
    std::string abbreviated(CnodeIndex cnode) const;
    // The call path whose full name is `text`; else the first, in index
    // order, whose name ends with "/" + `text`, so that the program's own
    // region (the root, often the executable's name) need not be written,
    // as --what-if accepts it; kNone if none. Linear in the number of call
    // paths times the regions `text` names.
    CnodeIndex find(std::string_view text) const;

private:
    CnodeIndex find_from_root(std::string_view text) const;
    CnodeIndex find_ending(std::string_view text) const;

    const Report& report_;
    std::vector<std::uint32_t> depth_;
    std::vector<CnodeIndex> head_end_;  // the ancestor of depth kHead (or the call path itself)
};

}  // namespace hindsight::cube
