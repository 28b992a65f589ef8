// The profile per communicator of every rank, summed on rank 0: each rank
// sends its table (analyses/communicator_profile.hpp) as bytes.
#pragma once

#include <mpi.h>

#include "analyses/communicator_profile.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::analyzer {

// Collective over `world`; the result is filled on rank 0 only.
analyses::CommunicatorProfile gather_communicator_profile(const analyses::CommunicatorProfile& mine, MPI_Comm world,
                                                          replay::ProgressWatch& watch);

}  // namespace hindsight::analyzer
