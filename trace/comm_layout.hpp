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
    // An intercommunicator (Communicator::first_group_size): the size of its
    // first group; 0 for an intracommunicator.
    int first_group_size = 0;
    // The peer `rank` that an event of the member `own_rank` names, as a
    // rank of the whole communicator: on an intercommunicator events name
    // ranks of the other group; -1 when there is no such rank.
    int peer_rank(int rank, int own_rank) const {
        if (first_group_size == 0) return rank;
        const bool in_first = own_rank < first_group_size;
        const int remote_size = in_first ? size() - first_group_size : first_group_size;
        if (rank < 0 || rank >= remote_size) return -1;
        return in_first ? first_group_size + rank : rank;
    }
};

CommLayout comm_layout(const Definitions& definitions, CommId comm);

}  // namespace hindsight::trace
