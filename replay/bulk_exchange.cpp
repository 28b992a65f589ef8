#include "replay/bulk_exchange.hpp"

#include <climits>
#include <cstdint>
#include <string>

#include "common/error.hpp"

namespace hindsight::replay {
namespace {

// MPI counts and displacements are ints: a pass's blocks must stay below
// 2 GiB per rank in all.
std::vector<int> offsets_of(const std::vector<int>& counts) {
    std::vector<int> offsets(counts.size(), 0);
    std::int64_t at = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        if (at > INT_MAX) break;
        offsets[r] = static_cast<int>(at);
        at += counts[r];
    }
    if (at > INT_MAX) throw Error("", "a replay pass exchanges more than 2 GiB at once");
    return offsets;
}

}  // namespace

void BulkExchange::exchange(const std::vector<std::vector<std::byte>>& outgoing) {
    int size = 0;
    MPI_Comm_size(comm_, &size);
    send_counts_.assign(static_cast<std::size_t>(size), 0);
    for (std::size_t r = 0; r < outgoing.size(); ++r) {
        if (outgoing[r].size() > INT_MAX) throw Error("", "a replay pass exchanges more than 2 GiB at once");
        send_counts_[r] = static_cast<int>(outgoing[r].size());
    }
    send_offsets_ = offsets_of(send_counts_);
    send_buffer_.clear();
    for (const auto& block : outgoing) send_buffer_.insert(send_buffer_.end(), block.begin(), block.end());

    receive_counts_.assign(static_cast<std::size_t>(size), 0);
    MPI_Request request;
    MPI_Ialltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, comm_, &request);
    watch_.wait(request, [] { return std::string("waits for the block sizes of a bulk exchange"); });
    receive_offsets_ = offsets_of(receive_counts_);
    received_.resize(static_cast<std::size_t>(receive_offsets_.back()) +
                     static_cast<std::size_t>(receive_counts_.back()));
    MPI_Ialltoallv(send_buffer_.data(), send_counts_.data(), send_offsets_.data(), MPI_BYTE, received_.data(),
                   receive_counts_.data(), receive_offsets_.data(), MPI_BYTE, comm_, &request);
    watch_.wait(request, [] { return std::string("waits for a bulk exchange"); });
    send_buffer_.clear();
    send_buffer_.shrink_to_fit();
}

std::span<const std::byte> BulkExchange::block(int rank) const {
    const auto r = static_cast<std::size_t>(rank);
    return std::span<const std::byte>(received_).subspan(static_cast<std::size_t>(receive_offsets_[r]),
                                                         static_cast<std::size_t>(receive_counts_[r]));
}

}  // namespace hindsight::replay
