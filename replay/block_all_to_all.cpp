#include "replay/block_all_to_all.hpp"

#include <climits>
#include <functional>
#include <string>

#include "common/error.hpp"

namespace hindsight::replay {

void BlockAllToAll::run_blocks(std::span<const std::span<const std::byte>> outgoing) {
    const std::size_t ranks = exchange_sizes(outgoing);
    receive_offsets_.assign(ranks + 1, 0);
    for (std::size_t r = 0; r < ranks; ++r)
        receive_offsets_[r + 1] = receive_offsets_[r] + static_cast<std::size_t>(receive_counts_[r]);
    received_.resize(receive_offsets_.back());
    transfer(outgoing, [&](std::size_t r) { return received_.data() + receive_offsets_[r]; });
}

void BlockAllToAll::receive_into(std::span<const std::span<const std::byte>> outgoing,
                                 std::vector<std::vector<std::byte>>& incoming) {
    const std::size_t ranks = exchange_sizes(outgoing);
    incoming.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r) incoming[r].resize(static_cast<std::size_t>(receive_counts_[r]));
    transfer(outgoing, [&](std::size_t r) { return incoming[r].data(); });
}

void BlockAllToAll::release() {
    ByteBlock().swap(received_);
    receive_offsets_.assign(receive_offsets_.size(), 0);
}

std::size_t BlockAllToAll::exchange_sizes(std::span<const std::span<const std::byte>> outgoing) {
    ++runs_;
    int size = 0;
    MPI_Comm_size(comm_, &size);
    const auto ranks = static_cast<std::size_t>(size);
    // MPI counts are ints: one block must stay below 2 GiB.
    send_counts_.assign(ranks, 0);
    for (std::size_t r = 0; r < outgoing.size() && r < ranks; ++r) {
        if (outgoing[r].size() > INT_MAX) throw Error("", "a replay pass sends more than 2 GiB to one rank at once");
        send_counts_[r] = static_cast<int>(outgoing[r].size());
    }
    receive_counts_.assign(ranks, 0);
    MPI_Request sizes;
    MPI_Ialltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm_, &sizes);
    watch_.wait(sizes, [] { return std::string("waits for the block sizes of a block all-to-all"); });
    return ranks;
}

void BlockAllToAll::transfer(std::span<const std::span<const std::byte>> outgoing,
                             const std::function<std::byte*(std::size_t rank)>& destination) {
    // Only non-empty blocks travel; both sides know which from the sizes.
    std::vector<MPI_Request> requests;
    for (std::size_t r = 0; r < receive_counts_.size(); ++r) {
        if (receive_counts_[r] == 0) continue;
        MPI_Irecv(destination(r), receive_counts_[r], MPI_BYTE, static_cast<int>(r), 0, comm_,
                  &requests.emplace_back());
    }
    for (std::size_t r = 0; r < send_counts_.size(); ++r) {
        if (send_counts_[r] == 0) continue;
        MPI_Isend(outgoing[r].data(), send_counts_[r], MPI_BYTE, static_cast<int>(r), 0, comm_,
                  &requests.emplace_back());
    }
    watch_.wait_all(requests, [] { return std::string("waits for a block all-to-all"); });
}

std::span<const std::byte> BlockAllToAll::block(int rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return std::span<const std::byte>(received_).subspan(receive_offsets_[r], receive_offsets_[r + 1] - receive_offsets_[r]);
}

}  // namespace hindsight::replay
