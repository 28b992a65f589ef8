// The MPI operation of a collective channel's reduction.
#pragma once

#include <mpi.h>

#include "replay/collective_channel.hpp"

namespace hindsight::replay {

inline MPI_Op mpi_op(ReduceOp op) {
    switch (op) {
    case ReduceOp::Sum: return MPI_SUM;
    case ReduceOp::Min: return MPI_MIN;
    case ReduceOp::Max: return MPI_MAX;
    }
    return MPI_SUM;
}

}  // namespace hindsight::replay
