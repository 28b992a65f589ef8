// The byte rules applied to the arguments of MPI collectives: sizes come
// from PMPI (never from the intercepted MPI_* functions, which would record
// themselves), arrays are read only where MPI says they are significant.
#include <vector>

#include "collector/collective_bytes.hpp"

namespace hindsight::collect::bytes {

namespace {

std::uint64_t type_size(MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL) return 0;
    int size = 0;
    PMPI_Type_size(type, &size);
    return size < 0 ? 0 : static_cast<std::uint64_t>(size);
}

std::uint64_t block(int count, MPI_Datatype type) {
    return count < 0 ? 0 : static_cast<std::uint64_t>(count) * type_size(type);
}

struct Place {
    int me = 0;
    int n = 0;
    bool inter = false;
};

// Rank and peer count: the remote group's size on an inter-communicator.
Place place(MPI_Comm comm) {
    Place p;
    PMPI_Comm_rank(comm, &p.me);
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    p.inter = inter != 0;
    if (inter) {
        PMPI_Comm_remote_size(comm, &p.n);
    } else {
        PMPI_Comm_size(comm, &p.n);
    }
    return p;
}

std::vector<std::uint64_t> blocks(int n, const int counts[], MPI_Datatype type) {
    std::vector<std::uint64_t> out(static_cast<std::size_t>(n));
    const std::uint64_t size = type_size(type);
    for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = counts[i] < 0 ? 0 : static_cast<std::uint64_t>(counts[i]) * size;
    return out;
}

std::vector<std::uint64_t> blocks(int n, const int counts[], const MPI_Datatype types[]) {
    std::vector<std::uint64_t> out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = block(counts[i], types[i]);
    return out;
}

bool in_place(const void* buf) { return buf == MPI_IN_PLACE; }

std::uint64_t sum(const std::vector<std::uint64_t>& blocks) {
    std::uint64_t total = 0;
    for (const std::uint64_t b : blocks) total += b;
    return total;
}

}  // namespace

CollectiveBytes barrier() { return {}; }

CollectiveBytes bcast(int count, MPI_Datatype type, int root, MPI_Comm comm) {
    const Place p = place(comm);
    const std::uint64_t b = block(count, type);
    if (p.inter) return rules::inter_rooted(root, static_cast<std::uint64_t>(p.n) * b, b, true);
    return rules::one_to_all(p.me, p.n, root, b, false);
}

CollectiveBytes reduce(const void* sendbuf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    const Place p = place(comm);
    const std::uint64_t b = block(count, type);
    if (p.inter) return rules::inter_rooted(root, static_cast<std::uint64_t>(p.n) * b, b, false);
    return rules::all_to_one(p.me, p.n, root, b, in_place(sendbuf));
}

CollectiveBytes allreduce(const void* sendbuf, int count, MPI_Datatype type, MPI_Comm comm) {
    const Place p = place(comm);
    const std::uint64_t b = block(count, type);
    return rules::all_to_all(p.n, b, b, in_place(sendbuf));
}

CollectiveBytes gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm) {
    const Place p = place(comm);
    if (p.inter) {
        return rules::inter_rooted(root, static_cast<std::uint64_t>(p.n) * block(recvcount, recvtype),
                                   block(sendcount, sendtype), false);
    }
    // The root's receive block and everyone else's send block are equal
    // in size (MPI requires matching type signatures).
    const std::uint64_t b = p.me == root ? block(recvcount, recvtype) : block(sendcount, sendtype);
    return rules::all_to_one(p.me, p.n, root, b, in_place(sendbuf));
}

CollectiveBytes gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                        const int recvcounts[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
    const Place p = place(comm);
    if (p.inter) {
        const std::uint64_t all = root == MPI_ROOT ? sum(blocks(p.n, recvcounts, recvtype)) : 0;
        return rules::inter_rooted(root, all, block(sendcount, sendtype), false);
    }
    if (p.me != root) return {block(sendcount, sendtype), 0};
    const auto b = blocks(p.n, recvcounts, recvtype);
    return rules::all_to_one_varying(p.me, root, b, 0, in_place(sendbuf));
}

CollectiveBytes scatter(int sendcount, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm) {
    const Place p = place(comm);
    if (p.inter) {
        return rules::inter_rooted(root, static_cast<std::uint64_t>(p.n) * block(sendcount, sendtype),
                                   block(recvcount, recvtype), true);
    }
    const std::uint64_t b = p.me == root ? block(sendcount, sendtype) : block(recvcount, recvtype);
    return rules::one_to_all(p.me, p.n, root, b, in_place(recvbuf));
}

CollectiveBytes scatterv(const int sendcounts[], MPI_Datatype sendtype, const void* recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    const Place p = place(comm);
    if (p.inter) {
        const std::uint64_t all = root == MPI_ROOT ? sum(blocks(p.n, sendcounts, sendtype)) : 0;
        return rules::inter_rooted(root, all, block(recvcount, recvtype), true);
    }
    if (p.me != root) return {0, block(recvcount, recvtype)};
    const auto b = blocks(p.n, sendcounts, sendtype);
    return rules::one_to_all_varying(p.me, root, b, 0, in_place(recvbuf));
}

CollectiveBytes allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
    const Place p = place(comm);
    return rules::all_to_all(p.n, block(sendcount, sendtype), block(recvcount, recvtype),
                             in_place(sendbuf));
}

CollectiveBytes allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
    const Place p = place(comm);
    const auto r = blocks(p.n, recvcounts, recvtype);
    return rules::allgather_varying(p.me, block(sendcount, sendtype), r, in_place(sendbuf));
}

CollectiveBytes alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm) {
    const Place p = place(comm);
    return rules::all_to_all(p.n, block(sendcount, sendtype), block(recvcount, recvtype),
                             in_place(sendbuf));
}

CollectiveBytes alltoallv(const void* sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                          const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
    const Place p = place(comm);
    const auto r = blocks(p.n, recvcounts, recvtype);
    if (in_place(sendbuf)) return rules::all_to_all_varying(p.me, r, r, true);
    return rules::all_to_all_varying(p.me, blocks(p.n, sendcounts, sendtype), r, false);
}

CollectiveBytes alltoallw(const void* sendbuf, const int sendcounts[],
                          const MPI_Datatype sendtypes[], const int recvcounts[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm) {
    const Place p = place(comm);
    const auto r = blocks(p.n, recvcounts, recvtypes);
    if (in_place(sendbuf)) return rules::all_to_all_varying(p.me, r, r, true);
    return rules::all_to_all_varying(p.me, blocks(p.n, sendcounts, sendtypes), r, false);
}

CollectiveBytes reduce_scatter(const void* sendbuf, const int recvcounts[], MPI_Datatype type,
                               MPI_Comm comm) {
    int me = 0;
    int n = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Comm_size(comm, &n);
    return rules::reduce_scatter(me, blocks(n, recvcounts, type), in_place(sendbuf));
}

CollectiveBytes reduce_scatter_block(const void* sendbuf, int recvcount, MPI_Datatype type,
                                     MPI_Comm comm) {
    int n = 0;
    PMPI_Comm_size(comm, &n);
    const std::uint64_t b = block(recvcount, type);
    return rules::all_to_all(n, b, b, in_place(sendbuf));
}

CollectiveBytes scan(const void* sendbuf, int count, MPI_Datatype type, MPI_Comm comm) {
    const Place p = place(comm);
    return rules::scan(p.me, p.n, block(count, type), in_place(sendbuf));
}

CollectiveBytes exscan(int count, MPI_Datatype type, MPI_Comm comm) {
    const Place p = place(comm);
    return rules::scan(p.me, p.n, block(count, type), true);
}

}  // namespace hindsight::collect::bytes
