// Who talks to whom (after the communication graph of seed 002): messages
// and bytes from every rank to every other rank, point-to-point as recorded,
// and separately the bytes the collectives imply. Computed from one rank's
// trace (its row of the matrix); the analyzer gathers the rows.
#pragma once

#include <cstdint>
#include <vector>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::analyses {

// One cell of the rank-to-rank matrix. Trivially copyable: the analyzer
// gathers the rows as bytes.
struct TrafficCell {
    std::int32_t from = 0;  // MPI_COMM_WORLD ranks
    std::int32_t to = 0;
    std::uint64_t messages = 0;          // point-to-point messages sent
    std::uint64_t bytes = 0;             // their bytes
    std::uint64_t collective_bytes = 0;  // bytes the collectives imply (below)
};

// This rank's row, sorted by `to`, one cell per peer it sent anything to.
//
// What a collective implies is a model, since the trace records only how
// many bytes each rank sent: a rank's bytes go to the root in an operation
// towards a root (MPI_Reduce, MPI_Gather[v]), to the members after it in a
// prefix operation (MPI_Scan, MPI_Exscan), and evenly to every member
// (itself included, whose share stays on the rank and is not counted)
// otherwise. MPI_Init and MPI_Finalize move no data of the program. On a
// hybrid rank the worker threads' messages that pairing matched count too
// (trace::ThreadStreams::paired), and their collectives by this model.
// `slots` numbers the trace's messages (which are sends).
std::vector<TrafficCell> traffic_row(const trace::LocalTrace& trace, const trace::MessageSlots& slots);

}  // namespace hindsight::analyses
