// Errors found on some ranks only must stop all of them, never leave the
// others waiting. Each phase of the analyzer ends with an agreement: every
// rank contributes its problem (if any) and all learn the one of the lowest
// failing rank, so that all exit together and rank 0 can print it.
#pragma once

#include <optional>
#include <string>

#include <mpi.h>

#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// Collective over `comm`.
std::optional<std::string> agree_on_problem(MPI_Comm comm, const std::optional<std::string>& local,
                                            ProgressWatch& watch);

}  // namespace hindsight::replay
