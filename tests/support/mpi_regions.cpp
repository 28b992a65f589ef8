#include "tests/support/mpi_regions.hpp"

#include <algorithm>
#include <array>

namespace hindsight::testing {
namespace {

// Sentinel for "not a blocking collective" inside the constant table.
constexpr int kNoOp = -1;

struct MpiFunction {
    std::string_view name;
    OTF2_RegionRole role;
    int op;  // an OTF2_CollectiveOp, or kNoOp
};

// Every MPI function whose role is not FUNCTION in Score-P's definitions
// (file I/O excepted), with the operation of the blocking collectives.
constexpr std::array kMpiFunctions{
    // Collectives.
    MpiFunction{"MPI_Barrier", OTF2_REGION_ROLE_BARRIER, OTF2_COLLECTIVE_OP_BARRIER},
    MpiFunction{"MPI_Ibarrier", OTF2_REGION_ROLE_BARRIER, kNoOp},
    MpiFunction{"MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_BCAST},
    MpiFunction{"MPI_Scatter", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_SCATTER},
    MpiFunction{"MPI_Scatterv", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_SCATTERV},
    MpiFunction{"MPI_Ibcast", OTF2_REGION_ROLE_COLL_ONE2ALL, kNoOp},
    MpiFunction{"MPI_Iscatter", OTF2_REGION_ROLE_COLL_ONE2ALL, kNoOp},
    MpiFunction{"MPI_Iscatterv", OTF2_REGION_ROLE_COLL_ONE2ALL, kNoOp},
    MpiFunction{"MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_REDUCE},
    MpiFunction{"MPI_Gather", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_GATHER},
    MpiFunction{"MPI_Gatherv", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_GATHERV},
    MpiFunction{"MPI_Ireduce", OTF2_REGION_ROLE_COLL_ALL2ONE, kNoOp},
    MpiFunction{"MPI_Igather", OTF2_REGION_ROLE_COLL_ALL2ONE, kNoOp},
    MpiFunction{"MPI_Igatherv", OTF2_REGION_ROLE_COLL_ALL2ONE, kNoOp},
    MpiFunction{"MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLREDUCE},
    MpiFunction{"MPI_Allgather", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLGATHER},
    MpiFunction{"MPI_Allgatherv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLGATHERV},
    MpiFunction{"MPI_Alltoall", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALL},
    MpiFunction{"MPI_Alltoallv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    MpiFunction{"MPI_Alltoallw", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLW},
    MpiFunction{"MPI_Reduce_scatter", OTF2_REGION_ROLE_COLL_ALL2ALL,
                OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
    MpiFunction{"MPI_Reduce_scatter_block", OTF2_REGION_ROLE_COLL_ALL2ALL,
                OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
    MpiFunction{"MPI_Iallreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Iallgather", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Iallgatherv", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Ialltoall", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Ialltoallv", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Ialltoallw", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Ireduce_scatter", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    MpiFunction{"MPI_Ireduce_scatter_block", OTF2_REGION_ROLE_COLL_ALL2ALL, kNoOp},
    // OTF2 has no neighborhood operation: Hindsight's collector records
    // these as ALLTOALLV (collector.md), with their receive sources.
    MpiFunction{"MPI_Neighbor_allgather", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    MpiFunction{"MPI_Neighbor_allgatherv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    MpiFunction{"MPI_Neighbor_alltoall", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    MpiFunction{"MPI_Neighbor_alltoallv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    MpiFunction{"MPI_Neighbor_alltoallw", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    MpiFunction{"MPI_Scan", OTF2_REGION_ROLE_COLL_OTHER, OTF2_COLLECTIVE_OP_SCAN},
    MpiFunction{"MPI_Exscan", OTF2_REGION_ROLE_COLL_OTHER, OTF2_COLLECTIVE_OP_EXSCAN},
    MpiFunction{"MPI_Iscan", OTF2_REGION_ROLE_COLL_OTHER, kNoOp},
    MpiFunction{"MPI_Iexscan", OTF2_REGION_ROLE_COLL_OTHER, kNoOp},
    // Point-to-point transfers (completion calls such as MPI_Wait are
    // FUNCTION in Score-P's definitions).
    MpiFunction{"MPI_Send", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Bsend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Ssend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Rsend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Recv", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Isend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Ibsend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Issend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Irsend", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Sendrecv", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Sendrecv_replace", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Probe", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Iprobe", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Mprobe", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Improbe", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Mrecv", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Imrecv", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Send_init", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Bsend_init", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Ssend_init", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Rsend_init", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    MpiFunction{"MPI_Recv_init", OTF2_REGION_ROLE_POINT2POINT, kNoOp},
    // One-sided communication.
    MpiFunction{"MPI_Get", OTF2_REGION_ROLE_RMA, kNoOp},
    MpiFunction{"MPI_Put", OTF2_REGION_ROLE_RMA, kNoOp},
    MpiFunction{"MPI_Rget", OTF2_REGION_ROLE_RMA, kNoOp},
    MpiFunction{"MPI_Rput", OTF2_REGION_ROLE_RMA, kNoOp},
    MpiFunction{"MPI_Accumulate", OTF2_REGION_ROLE_ATOMIC, kNoOp},
    MpiFunction{"MPI_Raccumulate", OTF2_REGION_ROLE_ATOMIC, kNoOp},
    MpiFunction{"MPI_Get_accumulate", OTF2_REGION_ROLE_ATOMIC, kNoOp},
    MpiFunction{"MPI_Rget_accumulate", OTF2_REGION_ROLE_ATOMIC, kNoOp},
    MpiFunction{"MPI_Fetch_and_op", OTF2_REGION_ROLE_ATOMIC, kNoOp},
    MpiFunction{"MPI_Compare_and_swap", OTF2_REGION_ROLE_ATOMIC, kNoOp},
};

const MpiFunction* find(std::string_view name) {
    const auto it = std::find_if(kMpiFunctions.begin(), kMpiFunctions.end(),
                                 [&](const MpiFunction& f) { return f.name == name; });
    return it == kMpiFunctions.end() ? nullptr : &*it;
}

}  // namespace

bool is_mpi_region(std::string_view name) { return name.starts_with("MPI_"); }

OTF2_RegionRole mpi_region_role(std::string_view name) {
    const MpiFunction* f = find(name);
    return f ? f->role : OTF2_RegionRole{OTF2_REGION_ROLE_FUNCTION};
}

std::optional<OTF2_CollectiveOp> mpi_collective_op(std::string_view name) {
    const MpiFunction* f = find(name);
    if (!f || f->op == kNoOp) return std::nullopt;
    return static_cast<OTF2_CollectiveOp>(f->op);
}

}  // namespace hindsight::testing
