#include "replay/communicator_mirror.hpp"

#include <utility>

namespace hindsight::replay {
namespace {

// Which communicators any rank's events use (OR over all ranks).
std::vector<unsigned char> used_anywhere(const trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch) {
    std::vector<unsigned char> used(trace.definitions.communicators.size(), 0);
    for (const trace::Message& m : trace.messages) used[m.comm] = 1;
    for (const trace::Collective& c : trace.collectives) used[c.comm] = 1;
    watch.complete("the communicators the other ranks use", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, used.data(), static_cast<int>(used.size()), MPI_UNSIGNED_CHAR, MPI_MAX, world,
                       &r[0]);
    });
    return used;
}

}  // namespace

mpi::Comm duplicate(MPI_Comm comm, ProgressWatch& watch) {
    mpi::Comm copy;
    watch.complete("the other members to copy a communicator",
                   [&](auto& r) { MPI_Comm_idup(comm, copy.out(), &r[0]); });
    return copy;
}

CommunicatorMirror::CommunicatorMirror(const trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch) {
    MPI_Comm_rank(world, &world_rank_);
    const auto used = used_anywhere(trace, world, watch);
    int tag_ub = 0;
    {
        int* value = nullptr;
        int found = 0;
        MPI_Comm_get_attr(world, MPI_TAG_UB, &value, &found);
        tag_ub = found ? *value : 32767;
    }

    mpi::Group world_group;
    MPI_Comm_group(world, world_group.out());
    mirrors_.resize(used.size());
    // Increasing id order on every rank: creating communicators of
    // overlapping groups in the same order cannot deadlock.
    for (CommId c = 0; c < used.size(); ++c) {
        Mirror& m = mirrors_[c];
        m.layout = trace::comm_layout(trace.definitions, c);
        if (!used[c] || !m.layout.valid) continue;
        MPI_Comm base = MPI_COMM_NULL;
        mpi::Comm created;
        if (m.layout.self) {
            base = MPI_COMM_SELF;
        } else if (trace.definitions.is_world(c)) {
            base = world;
        } else if (m.layout.rank_of(world_rank_) >= 0) {
            mpi::Group group;
            MPI_Group_incl(world_group.get(), static_cast<int>(m.layout.members.size()), m.layout.members.data(),
                           group.out());
            MPI_Comm_create_group(world, group.get(), static_cast<int>(c % (static_cast<unsigned>(tag_ub) + 1)),
                                  created.out());
            base = created.get();
        } else {
            continue;  // not a member
        }
        if (created.get() != MPI_COMM_NULL) {
            m.data = std::move(created);
        } else {
            m.data = duplicate(base, watch);
        }
        m.reply = duplicate(m.data.get(), watch);
    }
}

}  // namespace hindsight::replay
