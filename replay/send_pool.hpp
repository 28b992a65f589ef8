// Payloads in flight. A replayed send must not block (the recorded receive
// may come much later), so its buffer has to live until MPI is done with
// it. Completed slots are found with MPI_Testsome only when a new send needs
// one, and their buffers are reused, so that steady state allocates nothing.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <mpi.h>

#include "replay/progress_watch.hpp"

namespace hindsight::replay {

class SendPool {
public:
    SendPool() = default;
    SendPool(const SendPool&) = delete;
    SendPool& operator=(const SendPool&) = delete;
    // Waits for what is still in flight (normally nothing: see drain()).
    ~SendPool();

    // Starts sending a copy of `bytes` (in a buffer of a completed send,
    // whose capacity is reused).
    void isend(std::span<const std::byte> bytes, int dest, int tag, MPI_Comm comm);
    // Waits until every send has completed.
    void drain(ProgressWatch& watch);

private:
    void reclaim();  // frees the slots of completed sends

    std::vector<MPI_Request> requests_;           // MPI_REQUEST_NULL: free slot
    std::vector<std::vector<std::byte>> buffers_;  // parallel to requests_
    std::vector<int> free_;                       // indices of free slots
    std::vector<int> done_;                       // scratch for MPI_Testsome
};

}  // namespace hindsight::replay
