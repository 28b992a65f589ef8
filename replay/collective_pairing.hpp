// Whether the members of each communicator agree on its collective
// operations: the same number, and the same sequence of kinds and roots. A
// communicator whose members disagree cannot be replayed collective by
// collective (one member would wait for an operation another never
// entered), so all of its collective operations are left out: their time
// stays MPI time of their calls, but they synchronize nothing in the
// replay. MPI_Init and MPI_Finalize count as collectives of
// MPI_COMM_WORLD (trace/event.hpp). The non-blocking collectives never
// synchronize in the replay and need no agreement.
#pragma once

#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "replay/progress_watch.hpp"
#include "replay/unpaired.hpp"

namespace hindsight::replay {

// Collective over `world` (rank r holds trace rank r). Returns, by index in
// the collective table, which of this rank's collectives to leave out, and
// tallies them.
std::vector<bool> pair_collectives(const trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch,
                                   UnpairedTally& found);

}  // namespace hindsight::replay
