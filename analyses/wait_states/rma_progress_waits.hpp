// Wait for Progress in passive target epochs, after Scalasca's pattern of
// that name. MPI need not make progress on its own: an implementation may
// grant a lock, or carry out a transfer, only when the target calls MPI
// (any call). An origin's call of a lock epoch that began while its target
// was outside MPI, and still ran when the target entered an MPI call, waited
// for it from its entry until then: in MPI_Win_lock, _unlock or a flush
// that completed transfers of the epoch (mpi_rma_sync_wait_for_progress),
// or in a put, get or atomic operation of the epoch
// (mpi_rma_comm_wait_for_progress). A call that needed several
// targets (the lock and unlock of MPI_Win_lock_all) waited for the last of
// them. Where the epoch waited for a conflicting lock (Lock Contention), the
// call that waited for the grant is that pattern's, and calls that ended
// before the grant did not need the target yet; both are left out, so that
// no call waits twice.
//
// Two bulk exchanges, only where some rank has lock epochs: each origin
// tells each target the calls that needed it, each target answers where it
// entered MPI during them. Each wait goes to the delay analysis with the
// target's call that ended it (rma_waits.hpp): the target's work before
// that call is the delay.
#pragma once

#include <span>

#include "analyses/local_cube.hpp"
#include "analyses/rma_waits.hpp"
#include "analyses/wait_states/lock_epochs.hpp"
#include "replay/exchange.hpp"

namespace hindsight::analyses {

// Books the waits of this rank's `epochs`, each of which got its lock at
// `granted` (its MPI_Win_lock's entry if it did not wait); collective over
// all ranks of `exchange`.
void book_progress_waits(LocalCube& cube, RmaWaits& waits, const trace::LocalTrace& trace,
                         std::span<const LockEpoch> epochs, std::span<const Ticks> granted,
                         replay::Exchange& exchange);

}  // namespace hindsight::analyses
