// Gives every rank the same call tree. Each rank built its own tree while
// loading; rank 0 merges them all (its own first, so its ids stay), sends
// the global tree to everyone and each rank its id mapping, and every rank
// renumbers its events' call paths.
#pragma once

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// Collective over `world`; afterwards trace.call_tree is the global tree.
void unify_call_trees(trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch);

}  // namespace hindsight::replay
