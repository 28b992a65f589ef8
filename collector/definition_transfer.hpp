// The one MPI round of the unification at MPI_Finalize: every rank's local
// definitions go to rank 0, which unifies them (definition_unification.hpp),
// and each rank's id maps come back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include "collector/definition_unification.hpp"

namespace hindsight::collect {

// What a rank learns from the transfer: its id maps, and on rank 0 the
// unified definitions to write.
struct TransferredDefinitions {
    std::vector<std::uint64_t> region_map;
    std::vector<std::uint64_t> comm_map;
    std::vector<std::uint64_t> group_map;  // of the receive sources' groups
    std::vector<std::uint64_t> io_file_map;
    std::vector<std::uint64_t> io_handle_map;
    std::vector<std::uint64_t> rma_win_map;
    UnifiedDefinitions unified;  // rank 0 only
    bool failed = false;         // rank 0 could not unify: there are no maps
    std::string failure;         // rank 0 only: why
};

// Every rank's `mine`, on rank 0 by rank (empty elsewhere); collective over `comm`.
std::vector<std::vector<std::byte>> gather_to_rank_0(std::span<const std::byte> mine, MPI_Comm comm);

// Collective over `comm` (rank 0 unifies). A failure on rank 0 (e.g. a
// rank's definitions it cannot read) is announced to every rank before any
// of them waits for its maps, so all ranks return, all with `failed` set.
TransferredDefinitions unify_across_ranks(const LocalDefinitions& local, MPI_Comm comm);
// A process without MPI, the one rank: the same unification, no transfer.
TransferredDefinitions unify_alone(const LocalDefinitions& local);
// The same on definitions serialized already (`serialize`).
TransferredDefinitions unify_serialized_across_ranks(std::span<const std::byte> mine, MPI_Comm comm);

}  // namespace hindsight::collect
