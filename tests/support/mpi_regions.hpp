// How Score-P describes MPI functions as regions: their OTF2 role and, for
// the blocking collectives, the collective operation recorded in
// MPI_COLLECTIVE_END.
#pragma once

#include <optional>
#include <string_view>

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_Events.h>

namespace hindsight::testing {

// True for names of the MPI API ("MPI_..."), which become MPI regions.
bool is_mpi_region(std::string_view name);

// The role Score-P gives the MPI function `name` (FUNCTION when it has no
// more specific one, e.g. MPI_Init, MPI_Comm_split, MPI_Wait, MPI_Test).
OTF2_RegionRole mpi_region_role(std::string_view name);

// The collective operation of a blocking MPI collective, nullopt for any
// other function.
std::optional<OTF2_CollectiveOp> mpi_collective_op(std::string_view name);

}  // namespace hindsight::testing
