// Sizes come from the MPI library's own PMPI_* functions (next_mpi.hpp),
// never from the intercepted ones, which would record themselves;
// MPI_Type_size is not intercepted.
#include "collector/receive_sources.hpp"

#include "collector/mpi_functions.hpp"

namespace hindsight::collect::exchange {

namespace {

bool holds_bytes(int count, MPI_Datatype type) {
    if (count <= 0 || type == MPI_DATATYPE_NULL) return false;
    int size = 0;
    PMPI_Type_size(type, &size);
    return size > 0;
}

// The number of peers the counts are given for: the remote group's size on
// an inter-communicator.
int peers(MPI_Comm comm) {
    int inter = 0;
    next::PMPI_Comm_test_inter(comm, &inter);
    int n = 0;
    if (inter) {
        next::PMPI_Comm_remote_size(comm, &n);
    } else {
        next::PMPI_Comm_size(comm, &n);
    }
    return n;
}

}  // namespace

CollectiveExchange alltoallv(const void* sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                             const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
    CollectiveExchange x{bytes::alltoallv(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm), {}};
    // One receive type: its size is asked once, not per peer.
    if (!holds_bytes(1, recvtype)) return x;
    const int n = peers(comm);
    for (int i = 0; i < n; ++i)
        if (recvcounts[i] > 0) x.sources.push_back(i);
    return x;
}

CollectiveExchange alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Datatype sendtypes[],
                             const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    CollectiveExchange x{bytes::alltoallw(sendbuf, sendcounts, sendtypes, recvcounts, recvtypes, comm), {}};
    const int n = peers(comm);
    for (int i = 0; i < n; ++i)
        if (holds_bytes(recvcounts[i], recvtypes[i])) x.sources.push_back(i);
    return x;
}

}  // namespace hindsight::collect::exchange
