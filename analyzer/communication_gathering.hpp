// The ranks' shares of the communication structure (the profile per
// communicator and the rows of the communication matrix), gathered on rank 0.
#pragma once

#include <vector>

#include <mpi.h>

#include "analyses/pipeline.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::analyzer {

struct GatheredCommunication {
    analyses::CommunicatorProfile profile;                // summed over ranks
    std::vector<std::vector<analyses::TrafficCell>> rows;  // rank r's row at r
};

// Collective over `world`; the result is filled on rank 0 only.
GatheredCommunication gather_communication(const analyses::AnalysisFindings& findings, MPI_Comm world,
                                           replay::ProgressWatch& watch);

}  // namespace hindsight::analyzer
