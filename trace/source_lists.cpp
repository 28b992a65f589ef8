#include "trace/source_lists.hpp"

#include <algorithm>

#include "trace/event.hpp"

namespace hindsight::trace {

std::uint32_t SourceListTable::add(std::vector<std::vector<int>>& lists, const CommLayout& layout,
                                   int own_world_rank, std::span<const std::uint64_t> members) {
    if (!layout.valid) return Collective::kNoSources;
    std::vector<int> ranks;
    ranks.reserve(members.size());
    for (const std::uint64_t member : members) {
        // A self-like communicator answers rank 0 for anyone: only the
        // rank itself is its member.
        const bool in_range = member < static_cast<std::uint64_t>(INT32_MAX);
        const int world = in_range ? static_cast<int>(member) : -1;
        const int rank = !in_range || (layout.self && world != own_world_rank) ? -1 : layout.rank_of(world);
        if (rank < 0) return Collective::kNoSources;
        ranks.push_back(rank);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    const auto [it, added] = index_.try_emplace(std::move(ranks), static_cast<std::uint32_t>(lists.size()));
    if (added) lists.push_back(it->first);
    return it->second;
}

}  // namespace hindsight::trace
