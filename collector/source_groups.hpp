// The receive sources a rank recorded (collector/receive_sources.hpp), as
// local group ids: each distinct set of world ranks once, since a program
// repeats the same exchange every iteration. At MPI_Finalize the sets go to
// rank 0 with the other local definitions and become global groups
// (definition_unification.hpp); the events keep the local ids, which the
// rank's OTF2_MAPPING_GROUP table maps.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace hindsight::collect {

class SourceGroups {
public:
    // The local id of the set of `world_ranks` (any order, sorted here).
    std::uint32_t id(std::vector<int> world_ranks) {
        std::sort(world_ranks.begin(), world_ranks.end());
        world_ranks.erase(std::unique(world_ranks.begin(), world_ranks.end()), world_ranks.end());
        const auto [it, added] = index_.try_emplace(std::move(world_ranks), static_cast<std::uint32_t>(sets_.size()));
        if (added) sets_.push_back(it->first);
        return it->second;
    }
    // By local id.
    const std::vector<std::vector<int>>& sets() const { return sets_; }

private:
    std::vector<std::vector<int>> sets_;
    std::map<std::vector<int>, std::uint32_t> index_;
};

}  // namespace hindsight::collect
