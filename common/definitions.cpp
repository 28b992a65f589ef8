#include "common/definitions.hpp"

#include <algorithm>
#include <climits>

namespace hindsight {
namespace {

// The MPI paradigm's COMM_LOCATIONS group lists every rank's location, in
// MPI_COMM_WORLD rank order.
const Group* mpi_comm_locations(const Definitions& defs) {
    const auto it = std::find_if(defs.groups.begin(), defs.groups.end(), [](const Group& g) {
        return g.type == GroupType::CommLocations && g.paradigm == Paradigm::Mpi;
    });
    return it == defs.groups.end() ? nullptr : &*it;
}

}  // namespace

std::vector<int> Definitions::world_ranks(CommId comm) const {
    std::vector<int> ranks;
    if (comm >= communicators.size()) return ranks;
    const GroupId gid = communicators[comm].group;
    if (gid >= groups.size()) return ranks;
    const Group& group = groups[gid];
    if (group.type != GroupType::CommGroup) return ranks;
    ranks.reserve(group.members.size());
    // A member beyond int's range is no rank: -1 makes the communicator's
    // layout invalid instead of wrapping around to a valid-looking rank.
    for (std::uint64_t member : group.members)
        ranks.push_back(member <= static_cast<std::uint64_t>(INT_MAX) ? static_cast<int>(member) : -1);
    return ranks;
}

std::optional<int> Definitions::world_rank_of(LocationId location) const {
    const Group* locations_group = mpi_comm_locations(*this);
    if (!locations_group) return std::nullopt;
    const auto& m = locations_group->members;
    const auto it = std::find(m.begin(), m.end(), location);
    if (it == m.end()) return std::nullopt;
    return static_cast<int>(it - m.begin());
}

std::optional<LocationId> Definitions::location_of_rank(int world_rank) const {
    const Group* locations_group = mpi_comm_locations(*this);
    if (!locations_group || world_rank < 0 ||
        static_cast<std::size_t>(world_rank) >= locations_group->members.size())
        return std::nullopt;
    return locations_group->members[static_cast<std::size_t>(world_rank)];
}

int Definitions::mpi_rank_count() const {
    const Group* locations_group = mpi_comm_locations(*this);
    return locations_group ? static_cast<int>(locations_group->members.size()) : 0;
}

bool Definitions::is_world(CommId comm) const {
    if (comm >= communicators.size()) return false;
    const GroupId gid = communicators[comm].group;
    if (gid >= groups.size() || groups[gid].type != GroupType::CommGroup) return false;
    const std::vector<std::uint64_t>& members = groups[gid].members;
    if (members.empty() || members.size() != static_cast<std::size_t>(mpi_rank_count())) return false;
    for (std::size_t rank = 0; rank < members.size(); ++rank)
        if (members[rank] != rank) return false;
    return true;
}

std::string Definitions::comm_display_name(CommId comm) const {
    if (comm >= communicators.size()) return "communicator " + std::to_string(comm);
    const std::string& name = communicators[comm].name;
    return name.empty() ? "Comm " + std::to_string(comm) : name;
}

}  // namespace hindsight
