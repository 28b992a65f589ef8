// The replay's mirror of the trace's communicators: for every communicator
// the trace's events use, an MPI communicator among the analysis ranks in
// which each analysis rank has the rank its traced process had. Each gets
// two: one for the replayed messages and collectives, one for replies
// (observer.hpp), so that a reply can never be taken for a message.
#pragma once

#include <vector>

#include "trace/comm_layout.hpp"
#include "trace/local_trace.hpp"
#include "replay/mpi_handles.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// MPI_Comm_dup that waits through `watch`. Collective over `comm`.
mpi::Comm duplicate(MPI_Comm comm, ProgressWatch& watch);

class CommunicatorMirror {
public:
    // Collective over `world` (the analysis ranks; rank r replays the trace's
    // rank r). Only communicators that some rank's events use are created.
    CommunicatorMirror(const trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch);

    // MPI_COMM_NULL where this rank is no member (or the trace never uses
    // the communicator).
    MPI_Comm data(CommId comm) const { return mirrors_[comm].data.get(); }
    MPI_Comm reply(CommId comm) const { return mirrors_[comm].reply.get(); }
    const trace::CommLayout& layout(CommId comm) const { return mirrors_[comm].layout; }
    int world_rank() const { return world_rank_; }

private:
    struct Mirror {
        trace::CommLayout layout;
        mpi::Comm data;
        mpi::Comm reply;
    };
    std::vector<Mirror> mirrors_;
    int world_rank_ = 0;
};

}  // namespace hindsight::replay
