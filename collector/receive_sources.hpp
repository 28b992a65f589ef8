// The members a rank receives data from in a collective whose counts decide
// them (MPI_Alltoallv/w, the neighborhood collectives and their non-blocking
// forms): recorded with the operation's end as Hindsight's receive-sources
// attribute (common/receive_sources.hpp), since such a rank waits for those
// members only. Ranks are numbered as MPI numbers them in the call: ranks of
// the communicator, of the remote group on an inter-communicator.
#pragma once

#include <vector>

#include <mpi.h>

#include "collector/collective_bytes.hpp"

namespace hindsight::collect {

using ReceiveSources = std::vector<int>;

// What such a collective moved and whom it received from, found in one
// pass over its peers' blocks (the spec table's exchange= rules).
struct CollectiveExchange {
    CollectiveBytes bytes;
    ReceiveSources sources;
};

namespace exchange {

// Bytes as bytes::alltoallv/w count them; sources: the peers i whose block
// recvcounts[i] x the size of the receive type holds any bytes (with
// MPI_IN_PLACE too: the counts say what arrives).
CollectiveExchange alltoallv(const void* sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                             const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm);
CollectiveExchange alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Datatype sendtypes[],
                             const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm);

}  // namespace exchange
}  // namespace hindsight::collect
