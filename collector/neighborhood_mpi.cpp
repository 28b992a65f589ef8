// Topologies and sizes come from the MPI library's own PMPI_* functions
// (next_mpi.hpp), never from the intercepted ones, which would record
// themselves; MPI_Type_size is not intercepted.
#include "collector/neighborhood.hpp"

#include "collector/mpi_functions.hpp"

namespace hindsight::collect {

namespace {

std::uint64_t block(int count, MPI_Datatype type) {
    if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
    int size = 0;
    PMPI_Type_size(type, &size);
    return size < 0 ? 0 : static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

// Sums block(i) over the neighbors that are processes.
template <typename Block>
std::uint64_t total(const std::vector<int>& neighbors, Block&& block_of) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < neighbors.size(); ++i)
        if (neighbors[i] != MPI_PROC_NULL) sum += block_of(i);
    return sum;
}

template <typename Block>
ReceiveSources senders(const std::vector<int>& in, Block&& block_of) {
    ReceiveSources from;
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i] != MPI_PROC_NULL && block_of(i) > 0) from.push_back(in[i]);
    return from;
}

}  // namespace

Neighbors neighbors_of(MPI_Comm comm) {
    Neighbors n;
    int topology = MPI_UNDEFINED;
    next::PMPI_Topo_test(comm, &topology);
    if (topology == MPI_CART) {
        int ndims = 0;
        next::PMPI_Cartdim_get(comm, &ndims);
        // Per dimension the neighbor below, then the one above, for both
        // buffers: the source and destination of a shift by +1.
        for (int d = 0; d < ndims; ++d) {
            int below = MPI_PROC_NULL;
            int above = MPI_PROC_NULL;
            next::PMPI_Cart_shift(comm, d, 1, &below, &above);
            n.in.insert(n.in.end(), {below, above});
        }
        n.out = n.in;
    } else if (topology == MPI_GRAPH) {
        int rank = 0;
        int count = 0;
        next::PMPI_Comm_rank(comm, &rank);
        next::PMPI_Graph_neighbors_count(comm, rank, &count);
        n.in.resize(static_cast<std::size_t>(count < 0 ? 0 : count));
        next::PMPI_Graph_neighbors(comm, rank, count, n.in.data());
        n.out = n.in;
    } else if (topology == MPI_DIST_GRAPH) {
        int indegree = 0;
        int outdegree = 0;
        int weighted = 0;
        next::PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
        n.in.resize(static_cast<std::size_t>(indegree < 0 ? 0 : indegree));
        n.out.resize(static_cast<std::size_t>(outdegree < 0 ? 0 : outdegree));
        next::PMPI_Dist_graph_neighbors(comm, indegree, n.in.data(), MPI_UNWEIGHTED, outdegree, n.out.data(),
                                  MPI_UNWEIGHTED);
    }
    return n;
}

namespace bytes {

CollectiveBytes neighbor_allgather(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm) {
    const Neighbors n = neighbors_of(comm);
    return {total(n.out, [&](std::size_t) { return block(sendcount, sendtype); }),
            total(n.in, [&](std::size_t) { return block(recvcount, recvtype); })};
}

CollectiveBytes neighbor_allgatherv(int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                                    MPI_Datatype recvtype, MPI_Comm comm) {
    const Neighbors n = neighbors_of(comm);
    return {total(n.out, [&](std::size_t) { return block(sendcount, sendtype); }),
            total(n.in, [&](std::size_t i) { return block(recvcounts[i], recvtype); })};
}

CollectiveBytes neighbor_alltoall(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm) {
    return neighbor_allgather(sendcount, sendtype, recvcount, recvtype, comm);
}

CollectiveBytes neighbor_alltoallv(const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
                                   MPI_Datatype recvtype, MPI_Comm comm) {
    const Neighbors n = neighbors_of(comm);
    return {total(n.out, [&](std::size_t i) { return block(sendcounts[i], sendtype); }),
            total(n.in, [&](std::size_t i) { return block(recvcounts[i], recvtype); })};
}

CollectiveBytes neighbor_alltoallw(const int sendcounts[], const MPI_Datatype sendtypes[], const int recvcounts[],
                                   const MPI_Datatype recvtypes[], MPI_Comm comm) {
    const Neighbors n = neighbors_of(comm);
    return {total(n.out, [&](std::size_t i) { return block(sendcounts[i], sendtypes[i]); }),
            total(n.in, [&](std::size_t i) { return block(recvcounts[i], recvtypes[i]); })};
}

}  // namespace bytes

namespace sources {

ReceiveSources neighbor_uniform(int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
    return senders(neighbors_of(comm).in, [&](std::size_t) { return block(recvcount, recvtype); });
}

ReceiveSources neighbor_varying(const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
    return senders(neighbors_of(comm).in, [&](std::size_t i) { return block(recvcounts[i], recvtype); });
}

ReceiveSources neighbor_alltoallw(const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return senders(neighbors_of(comm).in, [&](std::size_t i) { return block(recvcounts[i], recvtypes[i]); });
}

}  // namespace sources
}  // namespace hindsight::collect
