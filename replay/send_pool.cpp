#include "replay/send_pool.hpp"

#include <string>

namespace hindsight::replay {

SendPool::~SendPool() {
    // After drain() every slot is free. Sends are still in flight only when
    // a pass was abandoned by an error, and the analyzer aborts MPI before
    // the engine goes (see analyzer/main.cpp); releasing the requests here
    // is then merely tidy.
    for (MPI_Request& r : requests_)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
}

void SendPool::reclaim() {
    if (requests_.empty()) return;
    done_.resize(requests_.size());
    int completed = 0;
    MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &completed, done_.data(),
                 MPI_STATUSES_IGNORE);
    if (completed == MPI_UNDEFINED) return;  // no active request at all
    for (int i = 0; i < completed; ++i) free_.push_back(done_[static_cast<std::size_t>(i)]);
}

void SendPool::isend(std::span<const std::byte> bytes, int dest, int tag, MPI_Comm comm) {
    if (free_.empty()) reclaim();
    if (free_.empty()) {
        free_.push_back(static_cast<int>(requests_.size()));
        requests_.push_back(MPI_REQUEST_NULL);
        buffers_.emplace_back();
    }
    const auto slot = static_cast<std::size_t>(free_.back());
    free_.pop_back();
    auto& payload = buffers_[slot];
    payload.assign(bytes.begin(), bytes.end());
    MPI_Isend(payload.data(), static_cast<int>(payload.size()), MPI_BYTE, dest, tag, comm, &requests_[slot]);
}

void SendPool::drain(ProgressWatch& watch) {
    watch.wait_all(requests_, [] { return std::string("replayed messages are never received at the end of a pass"); });
    free_.clear();
    for (std::size_t i = 0; i < requests_.size(); ++i) free_.push_back(static_cast<int>(i));
}

}  // namespace hindsight::replay
