// The members a rank receives data from in a collective whose counts decide
// them (MPI_Alltoallv/w and their non-blocking forms): recorded with the
// operation's end as Hindsight's receive-sources attribute
// (common/receive_sources.hpp), since such a rank waits for those members
// only. Ranks are numbered as MPI numbers them in the call: ranks of the
// communicator, of the remote group on an inter-communicator.
#pragma once

#include <vector>

#include <mpi.h>

namespace hindsight::collect {

using ReceiveSources = std::vector<int>;

namespace sources {

// The peers i whose block recvcounts[i] x the size of the receive type
// holds any bytes (with MPI_IN_PLACE too: the counts say what arrives).
ReceiveSources alltoallv(const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm);
ReceiveSources alltoallw(const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm);

}  // namespace sources
}  // namespace hindsight::collect
