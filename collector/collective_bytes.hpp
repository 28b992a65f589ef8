// Bytes a process sends and receives in one collective operation, counted
// the way Score-P counts them (so that Hindsight's traces and Score-P's agree
// in every tool that shows communication volume).
//
// The rules are pure functions of the caller's rank `me`, the communicator
// size `n` and block sizes in bytes (count x type size), so they are tested
// without MPI; the functions in namespace `bytes` below apply them to the
// arguments of an MPI call. A rank exchanges no bytes with itself when the
// call is MPI_IN_PLACE, hence the in_place variants.
#pragma once

#include <cstdint>
#include <span>

#include <mpi.h>

namespace hindsight::collect {

struct CollectiveBytes {
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
    friend bool operator==(const CollectiveBytes&, const CollectiveBytes&) = default;
};

namespace rules {

// Gather, Reduce: every rank sends `block` to the root, which receives n of them.
CollectiveBytes all_to_one(int me, int n, int root, std::uint64_t block, bool in_place);
// Gatherv: the root receives blocks[i] from rank i; others send `own`.
CollectiveBytes all_to_one_varying(int me, int root, std::span<const std::uint64_t> blocks,
                                   std::uint64_t own, bool in_place);
// Bcast, Scatter: the mirror image of all_to_one.
CollectiveBytes one_to_all(int me, int n, int root, std::uint64_t block, bool in_place);
// Scatterv: the mirror image of all_to_one_varying.
CollectiveBytes one_to_all_varying(int me, int root, std::span<const std::uint64_t> blocks,
                                   std::uint64_t own, bool in_place);
// Allgather, Alltoall, Allreduce, Reduce_scatter_block: `send` to and `recv`
// from each of the n ranks.
CollectiveBytes all_to_all(int n, std::uint64_t send, std::uint64_t recv, bool in_place);
// Alltoallv, Alltoallw: per-peer blocks.
CollectiveBytes all_to_all_varying(int me, std::span<const std::uint64_t> send,
                                   std::span<const std::uint64_t> recv, bool in_place);
// Allgatherv: `own` to each rank, recv[i] from rank i.
CollectiveBytes allgather_varying(int me, std::uint64_t own, std::span<const std::uint64_t> recv,
                                  bool in_place);
// Reduce_scatter: the whole vector (sum of blocks) goes in, n times block[me] comes back.
CollectiveBytes reduce_scatter(int me, std::span<const std::uint64_t> blocks, bool in_place);
// A rooted operation on an inter-communicator: `root` as MPI gives it
// (MPI_ROOT at the root, MPI_PROC_NULL in the rest of the root's group, the
// root's rank in the other group). The root moves `at_root` bytes (all its
// blocks to or from the other group), each member of the other group its
// `block`; the rest of the root's group takes no part. `root_sends`: Bcast,
// Scatter(v); otherwise data flows to the root (Reduce, Gather(v)).
CollectiveBytes inter_rooted(int root, std::uint64_t at_root, std::uint64_t block, bool root_sends);
// Scan: rank me sends to ranks me..n-1 and receives from ranks 0..me;
// Exscan is Scan without the rank itself (the in_place form).
CollectiveBytes scan(int me, int n, std::uint64_t block, bool in_place);

}  // namespace rules

// The rules applied to MPI arguments (on an inter-communicator n is the
// size of the remote group, and rooted operations follow inter_rooted).
namespace bytes {

CollectiveBytes barrier();
CollectiveBytes bcast(int count, MPI_Datatype type, int root, MPI_Comm comm);
CollectiveBytes reduce(const void* sendbuf, int count, MPI_Datatype type, int root, MPI_Comm comm);
CollectiveBytes allreduce(const void* sendbuf, int count, MPI_Datatype type, MPI_Comm comm);
CollectiveBytes gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm);
CollectiveBytes gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                        const int recvcounts[], MPI_Datatype recvtype, int root, MPI_Comm comm);
CollectiveBytes scatter(int sendcount, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm);
CollectiveBytes scatterv(const int sendcounts[], MPI_Datatype sendtype, const void* recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
CollectiveBytes allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm);
CollectiveBytes allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm);
CollectiveBytes alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm);
CollectiveBytes alltoallv(const void* sendbuf, const int sendcounts[], MPI_Datatype sendtype,
                          const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm);
CollectiveBytes alltoallw(const void* sendbuf, const int sendcounts[],
                          const MPI_Datatype sendtypes[], const int recvcounts[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm);
CollectiveBytes reduce_scatter(const void* sendbuf, const int recvcounts[], MPI_Datatype type,
                               MPI_Comm comm);
CollectiveBytes reduce_scatter_block(const void* sendbuf, int recvcount, MPI_Datatype type,
                                     MPI_Comm comm);
CollectiveBytes scan(const void* sendbuf, int count, MPI_Datatype type, MPI_Comm comm);
CollectiveBytes exscan(int count, MPI_Datatype type, MPI_Comm comm);

}  // namespace bytes
}  // namespace hindsight::collect
