// Every rank's records of a trivially copyable kind, gathered on rank 0 as
// bytes: the profile per communicator, the rows of the communication matrix
// (analyses/communication/communicator_profile.hpp, communication_matrix.hpp) and the
// longest waits (longest_waits_gathering.hpp).
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include <mpi.h>

#include "replay/progress_watch.hpp"

namespace hindsight::analyzer {

// Collective over `world`. On rank 0 the result holds each rank's records,
// by rank; elsewhere it is empty. `what` names the records for the
// progress watch ("the communicator profiles of all ranks").
template <typename Record>
    requires std::is_trivially_copyable_v<Record>
std::vector<std::vector<Record>> gather_records(const std::vector<Record>& mine, MPI_Comm world,
                                                replay::ProgressWatch& watch, const char* what) {
    int rank = 0, size = 1;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    int bytes = static_cast<int>(mine.size() * sizeof(Record));
    std::vector<int> counts(static_cast<std::size_t>(rank == 0 ? size : 0));
    watch.complete(what,
                   [&](auto& r) { MPI_Igather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world, &r[0]); });
    std::vector<int> displs;
    int total = 0;
    for (const int c : counts) {
        displs.push_back(total);
        total += c;
    }
    std::vector<std::byte> all(static_cast<std::size_t>(total));
    watch.complete(what, [&](auto& r) {
        MPI_Igatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0, world, &r[0]);
    });
    std::vector<std::vector<Record>> by_rank(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r) {
        by_rank[r].resize(static_cast<std::size_t>(counts[r]) / sizeof(Record));
        if (!by_rank[r].empty())
            std::memcpy(static_cast<void*>(by_rank[r].data()), all.data() + displs[r], by_rank[r].size() * sizeof(Record));
    }
    return by_rank;
}

}  // namespace hindsight::analyzer
