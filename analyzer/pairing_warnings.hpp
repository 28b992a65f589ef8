// The warnings' sentences on what pairing (replay/pairing.hpp) left out of
// the analysis or kept despite a difference: one sentence per kind, with
// how many messages or collective operations, between which ranks or on
// which communicator (the largest one or two named), and at which call
// paths (likewise), e.g.
//   "2 messages from rank 0 to rank 1 have no matching receive (at
//   main/MPI_Send); they are left out of the analysis".
#pragma once

#include <string>
#include <vector>

#include "trace/local_trace.hpp"
#include "replay/unpaired.hpp"

namespace hindsight::analyzer {

// `by_rank`: each rank's records, by rank (gathered on rank 0); `trace`
// names call paths and communicators (the call tree is the same on every
// rank).
std::vector<std::string> pairing_warnings(const std::vector<std::vector<replay::Unpaired>>& by_rank,
                                          const trace::LocalTrace& trace);

}  // namespace hindsight::analyzer
