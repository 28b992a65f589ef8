// The neighborhood collectives (MPI_Neighbor_* and MPI_Ineighbor_*): a rank
// sends to its out-neighbors and receives from its in-neighbors in the
// communicator's process topology. OTF2 has no neighborhood operation; the
// collector records them as ALLTOALLV, whose per-peer blocks they are, with
// the bytes of their blocks and the in-neighbors that sent data as receive
// sources (receive_sources.hpp), so that an analysis waits for those only.
#pragma once

#include <vector>

#include <mpi.h>

#include "collector/receive_sources.hpp"

namespace hindsight::collect {

// A rank's neighbors in MPI's buffer order (MPI-3.1 §7.6): MPI_PROC_NULL
// stays in its place (its block is in the buffers but moves no data). A
// communicator without a topology has none.
struct Neighbors {
    std::vector<int> in;
    std::vector<int> out;
};
Neighbors neighbors_of(MPI_Comm comm);

namespace exchange {

// Bytes: the blocks sent to the out-neighbors and received from the
// in-neighbors; sources: the in-neighbors whose block holds any bytes. The
// topology is asked once for both.
CollectiveExchange neighbor_allgather(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm);
CollectiveExchange neighbor_allgatherv(int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                                       MPI_Datatype recvtype, MPI_Comm comm);
CollectiveExchange neighbor_alltoall(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm);
CollectiveExchange neighbor_alltoallv(const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
                                      MPI_Datatype recvtype, MPI_Comm comm);
CollectiveExchange neighbor_alltoallw(const int sendcounts[], const MPI_Datatype sendtypes[],
                                      const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm);

}  // namespace exchange
}  // namespace hindsight::collect
