// The members a collective operation received data from (Collective::sources):
// the trace names them as world ranks, the event store keeps them as ranks
// of the operation's communicator, each distinct list once, since a run
// repeats the same list every iteration.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "trace/comm_layout.hpp"

namespace hindsight::trace {

class SourceListTable {
public:
    // The index in `lists` of the sorted communicator ranks of the world
    // ranks `members`, added when new; Collective::kNoSources when a member
    // is no rank of the communicator `layout` seen by `own_world_rank`
    // (damaged: the operation then keeps no sources rather than wrong ones).
    std::uint32_t add(std::vector<std::vector<int>>& lists, const CommLayout& layout, int own_world_rank,
                      std::span<const std::uint64_t> members);

private:
    std::map<std::vector<int>, std::uint32_t> index_;
};

}  // namespace hindsight::trace
