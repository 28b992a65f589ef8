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

// One pass over the neighbors that are processes: the bytes of their
// blocks, and the in-neighbors whose block holds any.
template <typename SendBlock, typename ReceiveBlock>
CollectiveExchange exchange_with(MPI_Comm comm, SendBlock&& send_block, ReceiveBlock&& receive_block) {
    const Neighbors n = neighbors_of(comm);
    CollectiveExchange x;
    for (std::size_t i = 0; i < n.out.size(); ++i)
        if (n.out[i] != MPI_PROC_NULL) x.bytes.sent += send_block(i);
    for (std::size_t i = 0; i < n.in.size(); ++i) {
        if (n.in[i] == MPI_PROC_NULL) continue;
        const std::uint64_t received = receive_block(i);
        x.bytes.received += received;
        if (received > 0) x.sources.push_back(n.in[i]);
    }
    return x;
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

namespace exchange {

CollectiveExchange neighbor_allgather(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm) {
    const std::uint64_t sent = block(sendcount, sendtype), received = block(recvcount, recvtype);
    return exchange_with(comm, [&](std::size_t) { return sent; }, [&](std::size_t) { return received; });
}

CollectiveExchange neighbor_allgatherv(int sendcount, MPI_Datatype sendtype, const int recvcounts[],
                                       MPI_Datatype recvtype, MPI_Comm comm) {
    const std::uint64_t sent = block(sendcount, sendtype), unit = block(1, recvtype);
    return exchange_with(comm, [&](std::size_t) { return sent; },
                         [&](std::size_t i) { return recvcounts[i] > 0 ? recvcounts[i] * unit : 0; });
}

CollectiveExchange neighbor_alltoall(int sendcount, MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm) {
    return neighbor_allgather(sendcount, sendtype, recvcount, recvtype, comm);
}

CollectiveExchange neighbor_alltoallv(const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[],
                                      MPI_Datatype recvtype, MPI_Comm comm) {
    const std::uint64_t send_unit = block(1, sendtype), receive_unit = block(1, recvtype);
    const auto times = [](int count, std::uint64_t unit) { return count > 0 ? count * unit : 0; };
    return exchange_with(comm, [&](std::size_t i) { return times(sendcounts[i], send_unit); },
                         [&](std::size_t i) { return times(recvcounts[i], receive_unit); });
}

CollectiveExchange neighbor_alltoallw(const int sendcounts[], const MPI_Datatype sendtypes[],
                                      const int recvcounts[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return exchange_with(comm, [&](std::size_t i) { return block(sendcounts[i], sendtypes[i]); },
                         [&](std::size_t i) { return block(recvcounts[i], recvtypes[i]); });
}

}  // namespace exchange
}  // namespace hindsight::collect
