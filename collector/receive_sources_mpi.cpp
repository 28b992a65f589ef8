// Sizes come from the MPI library's own PMPI_* functions (next_mpi.hpp),
// never from the intercepted ones, which would record themselves;
// MPI_Type_size is not intercepted.
#include "collector/receive_sources.hpp"

#include "collector/mpi_functions.hpp"

namespace hindsight::collect::sources {

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

ReceiveSources alltoallv(const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
    ReceiveSources from;
    const int n = peers(comm);
    for (int i = 0; i < n; ++i)
        if (holds_bytes(recvcounts[i], recvtype)) from.push_back(i);
    return from;
}

ReceiveSources alltoallw(const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    ReceiveSources from;
    const int n = peers(comm);
    for (int i = 0; i < n; ++i)
        if (holds_bytes(recvcounts[i], recvtypes[i])) from.push_back(i);
    return from;
}

}  // namespace hindsight::collect::sources
