#include "trace/otf2_enums.hpp"

namespace hindsight::trace {

Paradigm paradigm_from_otf2(OTF2_Paradigm paradigm) {
    switch (paradigm) {
    case OTF2_PARADIGM_UNKNOWN: return Paradigm::Unknown;
    case OTF2_PARADIGM_USER: return Paradigm::User;
    case OTF2_PARADIGM_COMPILER: return Paradigm::Compiler;
    case OTF2_PARADIGM_MPI: return Paradigm::Mpi;
    case OTF2_PARADIGM_MEASUREMENT_SYSTEM: return Paradigm::MeasurementSystem;
    case OTF2_PARADIGM_OPENMP: return Paradigm::OpenMp;
    default: return Paradigm::Other;
    }
}

RegionRole role_from_otf2(OTF2_RegionRole role) {
    switch (role) {
    case OTF2_REGION_ROLE_UNKNOWN: return RegionRole::Unknown;
    case OTF2_REGION_ROLE_FUNCTION: return RegionRole::Function;
    case OTF2_REGION_ROLE_WRAPPER: return RegionRole::Wrapper;
    case OTF2_REGION_ROLE_LOOP: return RegionRole::Loop;
    case OTF2_REGION_ROLE_CODE: return RegionRole::Code;
    case OTF2_REGION_ROLE_ARTIFICIAL: return RegionRole::Artificial;
    case OTF2_REGION_ROLE_BARRIER: return RegionRole::Barrier;
    case OTF2_REGION_ROLE_IMPLICIT_BARRIER: return RegionRole::ImplicitBarrier;
    case OTF2_REGION_ROLE_COLL_ONE2ALL: return RegionRole::CollOne2All;
    case OTF2_REGION_ROLE_COLL_ALL2ONE: return RegionRole::CollAll2One;
    case OTF2_REGION_ROLE_COLL_ALL2ALL: return RegionRole::CollAll2All;
    case OTF2_REGION_ROLE_COLL_OTHER: return RegionRole::CollOther;
    case OTF2_REGION_ROLE_POINT2POINT: return RegionRole::Point2Point;
    case OTF2_REGION_ROLE_FILE_IO: return RegionRole::FileIo;
    case OTF2_REGION_ROLE_FILE_IO_METADATA: return RegionRole::FileIoMetadata;
    case OTF2_REGION_ROLE_RMA: return RegionRole::Rma;
    case OTF2_REGION_ROLE_ATOMIC: return RegionRole::Atomic;
    case OTF2_REGION_ROLE_PARALLEL: return RegionRole::Parallel;
    case OTF2_REGION_ROLE_CRITICAL: return RegionRole::Critical;
    case OTF2_REGION_ROLE_CRITICAL_SBLOCK: return RegionRole::CriticalSblock;
    case OTF2_REGION_ROLE_TASK:
    case OTF2_REGION_ROLE_TASK_UNTIED: return RegionRole::Task;
    default: return RegionRole::Other;
    }
}

GroupType group_type_from_otf2(OTF2_GroupType type) {
    switch (type) {
    case OTF2_GROUP_TYPE_UNKNOWN: return GroupType::Unknown;
    case OTF2_GROUP_TYPE_COMM_LOCATIONS: return GroupType::CommLocations;
    case OTF2_GROUP_TYPE_COMM_GROUP: return GroupType::CommGroup;
    case OTF2_GROUP_TYPE_COMM_SELF: return GroupType::CommSelf;
    default: return GroupType::Other;
    }
}

std::optional<CollectiveOp> rma_window_operation(OTF2_CollectiveOp op) {
    switch (op) {
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE:
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE: return CollectiveOp::RmaWinCreate;
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE:
    case OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE: return CollectiveOp::RmaWinFree;
    case OTF2_COLLECTIVE_OP_BARRIER: return CollectiveOp::RmaFence;
    default: return std::nullopt;
    }
}

CollectiveOp collective_op_from_otf2(OTF2_CollectiveOp op) {
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: return CollectiveOp::Barrier;
    case OTF2_COLLECTIVE_OP_BCAST: return CollectiveOp::Bcast;
    case OTF2_COLLECTIVE_OP_GATHER: return CollectiveOp::Gather;
    case OTF2_COLLECTIVE_OP_GATHERV: return CollectiveOp::Gatherv;
    case OTF2_COLLECTIVE_OP_SCATTER: return CollectiveOp::Scatter;
    case OTF2_COLLECTIVE_OP_SCATTERV: return CollectiveOp::Scatterv;
    case OTF2_COLLECTIVE_OP_ALLGATHER: return CollectiveOp::Allgather;
    case OTF2_COLLECTIVE_OP_ALLGATHERV: return CollectiveOp::Allgatherv;
    case OTF2_COLLECTIVE_OP_ALLTOALL: return CollectiveOp::Alltoall;
    case OTF2_COLLECTIVE_OP_ALLTOALLV: return CollectiveOp::Alltoallv;
    case OTF2_COLLECTIVE_OP_ALLTOALLW: return CollectiveOp::Alltoallw;
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return CollectiveOp::Allreduce;
    case OTF2_COLLECTIVE_OP_REDUCE: return CollectiveOp::Reduce;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER: return CollectiveOp::ReduceScatter;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return CollectiveOp::ReduceScatterBlock;
    case OTF2_COLLECTIVE_OP_SCAN: return CollectiveOp::Scan;
    case OTF2_COLLECTIVE_OP_EXSCAN: return CollectiveOp::Exscan;
    default: return CollectiveOp::Other;
    }
}

}  // namespace hindsight::trace
