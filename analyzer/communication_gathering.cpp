#include "analyzer/communication_gathering.hpp"

#include "analyzer/row_gathering.hpp"

namespace hindsight::analyzer {

GatheredCommunication gather_communication(const analyses::AnalysisFindings& findings, MPI_Comm world,
                                           replay::ProgressWatch& watch) {
    GatheredCommunication gathered;
    for (const auto& part : gather_records(findings.communicators, world, watch, "the communicator profiles of all ranks"))
        analyses::merge_into(gathered.profile, part);
    gathered.rows = gather_records(findings.traffic, world, watch, "the communication matrix rows of all ranks");
    return gathered;
}

}  // namespace hindsight::analyzer
