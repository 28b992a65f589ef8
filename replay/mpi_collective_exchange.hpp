// CollectiveExchange on a mirror communicator, with MPI's non-blocking
// collectives completed under the progress watch (never a blocking call).
#pragma once

#include <vector>

#include "replay/comm_layout.hpp"
#include "replay/immediate_exchange.hpp"
#include "replay/progress.hpp"

namespace hindsight::replay {

class MpiCollectiveExchange final : public ImmediateExchange {
public:
    // `scratch` is reused between exchanges to avoid allocations.
    MpiCollectiveExchange(MPI_Comm comm, const CommLayout& layout, int world_rank, ProgressWatch& watch,
                          std::vector<double>& scratch);

    int size() const override { return size_; }
    int rank() const override { return rank_; }
    int world_rank(int r) const override;

private:
    void allreduce_now(std::span<double> values, ReduceOp op) override;
    RankedValue maxloc_now(double value) override;
    RankedValue minloc_now(double value) override;
    RankedValue scan_maxloc_now(double value) override;
    void exscan_now(std::span<double> values, ReduceOp op) override;
    void reduce_sum_now(std::span<double> values, int root) override;
    void broadcast_now(std::vector<double>& values, int root) override;
    void broadcast_fixed_now(std::span<double> values, int root) override;

    void complete(MPI_Request& request, const char* operation);
    // MPI_DOUBLE_INT reductions: MPI_Iallreduce, or with `prefix` MPI_Iscan.
    RankedValue reduce_loc(double value, MPI_Op op, bool prefix, const char* operation);

    MPI_Comm comm_;
    const CommLayout& layout_;
    int world_rank_;
    int size_ = 1;
    int rank_ = 0;
    ProgressWatch& watch_;
    std::vector<double>& scratch_;
};

}  // namespace hindsight::replay
