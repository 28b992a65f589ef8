// Size of a trace communicator and a rank's place in it, from the
// definitions alone (no MPI): what the loader validates events against and
// what the replay's communicator mirror reproduces.
#pragma once

#include <cstddef>
#include <vector>

#include "common/definitions.hpp"

namespace hindsight::trace {

struct CommLayout {
    bool valid = false;        // an MPI communicator with a usable group
    bool self = false;         // MPI_COMM_SELF-like: every rank alone
    std::vector<int> members;  // world ranks in communicator rank order (empty for self)
    int size() const { return self ? 1 : static_cast<int>(members.size()); }
    // Rank of `world_rank` in the communicator, or -1 when it is no member.
    int rank_of(int world_rank) const;
    // World rank of the communicator's rank `rank`, which must be below
    // size(), as seen by the member `own_world_rank` (the only member of a
    // self-like one).
    int world_rank_of(int rank, int own_world_rank) const {
        return self ? own_world_rank : members[static_cast<std::size_t>(rank)];
    }
};

CommLayout comm_layout(const Definitions& definitions, CommId comm);

}  // namespace hindsight::trace
