// The bulk exchanges of exchange.hpp over MPI: one block all-to-all per
// all_to_all(), one non-blocking reduction per sum(), any() or max_loc(),
// all completed under the progress watch.
#pragma once

#include <mpi.h>

#include "replay/block_all_to_all.hpp"
#include "replay/exchange.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

class MpiExchange final : public Exchange {
public:
    // `comm` holds all analysis ranks, rank r replaying the trace's rank r;
    // it and `watch` must outlive this object.
    MpiExchange(MPI_Comm comm, ProgressWatch& watch);

    int rank() const override { return rank_; }
    int size() const override { return size_; }
    ByteBlocks all_to_all(const ByteBlocks& outgoing) override;
    void sum(std::span<double> values) override;
    bool any(bool value) override;
    RankedValue max_loc(double value) override;

private:
    MPI_Comm comm_;
    ProgressWatch& watch_;
    BlockAllToAll blocks_;
    int rank_ = 0;
    int size_ = 1;
};

}  // namespace hindsight::replay
