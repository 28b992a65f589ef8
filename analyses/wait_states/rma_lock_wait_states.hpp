// Lock contention in passive target synchronization (MPI_Win_lock ...
// MPI_Win_unlock, MPI_Win_lock_all ... MPI_Win_unlock_all), after
// Scalasca's pattern of that name: an origin's lock on a target waited
// while another origin held a conflicting lock on the same target and
// window (either of the two exclusive). MPI grants the lock whenever it
// likes (an implementation may take it only in MPI_Win_unlock), so the
// trace shows where the origin asked for it (RMA_REQUEST_LOCK at
// MPI_Win_lock's entry) and where it gave it back (in MPI_Win_unlock), not
// when it got it. The target, told of every lock on it, grants them in the
// order they were asked for: each as soon as the conflicting locks asked
// for before it began to be given back, at the entry of their
// MPI_Win_unlock (MPI may pass the lock on before that call returns, and
// the trace does not show when within the call it did). The origin's
// epoch waited until then in whichever of its calls was running: in
// MPI_Win_lock or _unlock (mpi_rma_sync_lock_competition), or in a put,
// get or atomic operation of the epoch (mpi_rma_comm_lock_competition),
// from the call's entry.
//
// Two bulk exchanges after the forward pass: each origin tells each target
// its lock epochs, each target answers when it granted them and whose
// MPI_Win_unlock granted them, which `waits` gets with each wait for the
// delay analysis (rma_waits.hpp).
//
// With the grants known, the epochs' calls after them look for waits for
// their targets' progress (rma_progress_waits.hpp).
#pragma once

#include "analyses/local_cube.hpp"
#include "analyses/rma_waits.hpp"
#include "analyses/round_analysis.hpp"

namespace hindsight::analyses {

class RmaLockWaitStates final : public RoundAnalysis {
public:
    RmaLockWaitStates(LocalCube& cube, RmaWaits& waits) : cube_(&cube), waits_(&waits) {}
    void run(const trace::LocalTrace& trace, const ForwardFacts& facts, replay::Exchange& exchange) override;

private:
    LocalCube* cube_;
    RmaWaits* waits_;
};

}  // namespace hindsight::analyses
