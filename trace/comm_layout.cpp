#include "trace/comm_layout.hpp"

#include <algorithm>

namespace hindsight::trace {

int CommLayout::rank_of(int world_rank) const {
    if (self) return 0;
    const auto it = std::find(members.begin(), members.end(), world_rank);
    return it == members.end() ? -1 : static_cast<int>(it - members.begin());
}

CommLayout comm_layout(const Definitions& definitions, CommId comm) {
    CommLayout layout;
    if (comm >= definitions.communicators.size()) return layout;
    const GroupId gid = definitions.communicators[comm].group;
    if (gid >= definitions.groups.size()) return layout;
    const Group& group = definitions.groups[gid];
    const int world_size = definitions.mpi_rank_count();
    if (group.type == GroupType::CommSelf) {
        layout.valid = layout.self = true;
    } else if (group.type == GroupType::CommGroup) {
        layout.members = definitions.world_ranks(comm);
        // Members must be distinct ranks of MPI_COMM_WORLD.
        std::vector<int> sorted = layout.members;
        std::sort(sorted.begin(), sorted.end());
        layout.valid = !sorted.empty() && sorted.front() >= 0 && sorted.back() < world_size &&
                       std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
        const auto first = definitions.communicators[comm].first_group_size;
        if (first > 0 && first < layout.members.size()) layout.first_group_size = static_cast<int>(first);
    }
    return layout;
}

}  // namespace hindsight::trace
