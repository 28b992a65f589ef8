// A rank's passive target epochs (MPI_Win_lock ... MPI_Win_unlock,
// MPI_Win_lock_all ... MPI_Win_unlock_all) as its lock records show them,
// for the wait states of such epochs (rma_lock_wait_states.hpp,
// rma_progress_waits.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "analyses/wait_states/epoch_calls.hpp"

namespace hindsight::analyses {

// One passive target epoch of this rank: its lock (one target, or every
// target of the window) from MPI_Win_lock to MPI_Win_unlock.
struct LockEpoch {
    std::uint64_t window = 0;
    std::vector<int> targets;  // world ranks
    bool exclusive = false;
    CallSpan lock;
    CallSpan unlock;
};

// The rank's epochs, in the order they were given back: each lock request
// with the next release of the same window and target. A request never
// released (a cut trace) is left out.
std::vector<LockEpoch> find_lock_epochs(const trace::LocalTrace& trace);

}  // namespace hindsight::analyses
