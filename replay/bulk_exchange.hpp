// One block of bytes to every analysis rank and one from every rank, in a
// single all-to-all: how a pass ships everything it can know in advance
// (the payloads of a pass whose observers pack trace data only, the flags
// saying which messages travel at all). Completed under the progress watch.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <mpi.h>

#include "replay/progress.hpp"

namespace hindsight::replay {

class BulkExchange {
public:
    // `comm` holds all analysis ranks, rank r replaying the trace's rank r.
    BulkExchange(MPI_Comm comm, ProgressWatch& watch) : comm_(comm), watch_(watch) {}

    // outgoing[r] goes to rank r; afterwards block(r) is what rank r sent.
    // Collective over `comm`.
    void exchange(const std::vector<std::vector<std::byte>>& outgoing);
    std::span<const std::byte> block(int rank) const;

private:
    MPI_Comm comm_;
    ProgressWatch& watch_;
    std::vector<std::byte> received_;
    std::vector<int> send_counts_, send_offsets_, receive_counts_, receive_offsets_;
    std::vector<std::byte> send_buffer_;
};

}  // namespace hindsight::replay
