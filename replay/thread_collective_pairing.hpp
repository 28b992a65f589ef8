// The collective operations OpenMP worker threads made, which the replay
// cannot pair (it walks the masters' event stores only): MPI lets one thread
// of a process at a time into a collective on a communicator, and starts a
// communicator's collectives in the same order on every member, so the
// k-th collective of a communicator on one rank, whichever thread made it,
// is the k-th on every other member. A rank's collectives of each
// communicator on all its threads are merged in time order; the positions
// a worker's collective holds on any member are left out on every member,
// so that the masters' remaining collectives of the communicator agree and
// are analyzed (collective_pairing.hpp). Without this, one worker's
// collective would leave out all of its communicator's collectives. The
// members of each such operation then tell each other when they arrived
// and ended, for its wait states (analyses/thread_collective_waits.hpp).
//
// Costs two small all-gathers (of nothing) when no rank has a worker's
// collective.
#pragma once

#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// Collective over `world` (rank r holds trace rank r). Fills
// trace.threads.collective_parts with this rank's part at each such
// position, and what the members told each other of theirs (when each
// arrived and ended); returns, by index in the collective table, the
// master's collectives among them, which the caller leaves out.
std::vector<bool> leave_out_worker_collectives(trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch);

}  // namespace hindsight::replay
