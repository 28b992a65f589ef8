// One block of bytes to every analysis rank and one from every rank: how a
// pass ships everything it can know in advance (the payloads of a pass
// whose observers pack trace data only, the flags saying which messages
// travel at all). Completed under the progress watch.
//
// Blocks of millions of payloads are large, and memory the process has not
// used before costs a page fault per page when first written: the blocks
// travel straight from the caller's blocks, without being copied into one
// buffer first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <mpi.h>

#include "replay/progress_watch.hpp"

namespace hindsight::replay {

using ByteBlock = std::vector<std::byte>;

class BlockAllToAll {
public:
    // `comm` holds all analysis ranks, rank r replaying the trace's rank r.
    BlockAllToAll(MPI_Comm comm, ProgressWatch& watch) : comm_(comm), watch_(watch) {}

    // outgoing[r] goes to rank r (ranks beyond outgoing.size() get nothing);
    // afterwards block(r) is what rank r sent. Collective over `comm`.
    template <typename Block>
    void run(const std::vector<Block>& outgoing) {
        std::vector<std::span<const std::byte>> blocks(outgoing.begin(), outgoing.end());
        run_blocks(blocks);
    }
    std::span<const std::byte> block(int rank) const;
    // The same, received straight into incoming[r] (resized to fit), for a
    // caller that keeps the blocks apart.
    template <typename Block>
    void run_into(const std::vector<Block>& outgoing, std::vector<std::vector<std::byte>>& incoming) {
        std::vector<std::span<const std::byte>> blocks(outgoing.begin(), outgoing.end());
        receive_into(blocks, incoming);
    }
    // Gives back the memory of the blocks received last (block() is empty
    // afterwards): a pass's payloads can be millions.
    void release();
    // How many all-to-alls ran (statistics).
    std::uint64_t runs() const { return runs_; }

private:
    void run_blocks(std::span<const std::span<const std::byte>> outgoing);
    void receive_into(std::span<const std::span<const std::byte>> outgoing,
                      std::vector<std::vector<std::byte>>& incoming);
    // Tells every rank the size of its block; returns the number of ranks.
    std::size_t exchange_sizes(std::span<const std::span<const std::byte>> outgoing);
    // Receives block r at destination(r) while sending the outgoing ones.
    void transfer(std::span<const std::span<const std::byte>> outgoing,
                  const std::function<std::byte*(std::size_t rank)>& destination);

    MPI_Comm comm_;
    ProgressWatch& watch_;
    ByteBlock received_;
    std::vector<int> send_counts_, receive_counts_;
    std::vector<std::size_t> receive_offsets_;
    std::uint64_t runs_ = 0;
};

}  // namespace hindsight::replay
