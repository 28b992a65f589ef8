// Short lists of records to some peers and from some peers, by way of a
// block all-to-all (block_all_to_all.hpp): what pairing tells each peer
// about the messages between the two.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include <mpi.h>

#include "replay/block_all_to_all.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// outgoing[r] goes to rank r; returns, by rank, what each sent this one.
// Collective over `comm`.
template <typename Record>
    requires std::is_trivially_copyable_v<Record>
std::vector<std::vector<Record>> exchange_lists(const std::vector<std::vector<Record>>& outgoing, MPI_Comm comm,
                                                ProgressWatch& watch) {
    std::vector<std::span<const std::byte>> blocks;
    for (const std::vector<Record>& list : outgoing) blocks.push_back(std::as_bytes(std::span(list)));
    BlockAllToAll all_to_all(comm, watch);
    all_to_all.run(blocks);
    int size = 0;
    MPI_Comm_size(comm, &size);
    std::vector<std::vector<Record>> incoming(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r) {
        const std::span<const std::byte> block = all_to_all.block(r);
        auto& list = incoming[static_cast<std::size_t>(r)];
        list.resize(block.size() / sizeof(Record));
        if (!list.empty()) std::memcpy(static_cast<void*>(list.data()), block.data(), list.size() * sizeof(Record));
    }
    return incoming;
}

}  // namespace hindsight::replay
