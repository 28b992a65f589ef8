#include "replay/mpi_collective_exchange.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "replay/mpi_reduce_op.hpp"

namespace hindsight::replay {
namespace {

int count(std::size_t n) { return static_cast<int>(n); }

}  // namespace

MpiCollectiveExchange::MpiCollectiveExchange(MPI_Comm comm, const CommLayout& layout, int world_rank,
                                             ProgressWatch& watch, std::vector<double>& scratch)
    : comm_(comm), layout_(layout), world_rank_(world_rank), watch_(watch), scratch_(scratch) {
    MPI_Comm_size(comm_, &size_);
    MPI_Comm_rank(comm_, &rank_);
}

int MpiCollectiveExchange::world_rank(int r) const {
    return layout_.self ? world_rank_ : layout_.members.at(static_cast<std::size_t>(r));
}

void MpiCollectiveExchange::complete(MPI_Request& request, const char* operation) {
    watch_.wait(request, [&] {
        return std::string("rank ") + std::to_string(world_rank_) + " waits in a collective exchange (" +
               operation + ")";
    });
}

void MpiCollectiveExchange::allreduce_now(std::span<double> values, ReduceOp op) {
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, values.data(), count(values.size()), MPI_DOUBLE, mpi_op(op), comm_, &request);
    complete(request, "allreduce");
}

RankedValue MpiCollectiveExchange::reduce_loc(double value, MPI_Op op, bool prefix, const char* operation) {
    struct {
        double value;
        int rank;
    } in{value, rank_}, out{};
    MPI_Request request;
    if (prefix)
        MPI_Iscan(&in, &out, 1, MPI_DOUBLE_INT, op, comm_, &request);
    else
        MPI_Iallreduce(&in, &out, 1, MPI_DOUBLE_INT, op, comm_, &request);
    complete(request, operation);
    return {out.value, out.rank};
}

RankedValue MpiCollectiveExchange::maxloc_now(double value) {
    return reduce_loc(value, MPI_MAXLOC, false, "maxloc");
}

RankedValue MpiCollectiveExchange::minloc_now(double value) {
    return reduce_loc(value, MPI_MINLOC, false, "minloc");
}

RankedValue MpiCollectiveExchange::scan_maxloc_now(double value) {
    return reduce_loc(value, MPI_MAXLOC, true, "scan maxloc");
}

void MpiCollectiveExchange::exscan_now(std::span<double> values, ReduceOp op) {
    // MPI leaves rank 0's result undefined; the interface keeps its values.
    scratch_.assign(values.begin(), values.end());
    MPI_Request request;
    MPI_Iexscan(values.data(), scratch_.data(), count(values.size()), MPI_DOUBLE, mpi_op(op), comm_, &request);
    complete(request, "exscan");
    if (rank_ != 0) std::copy(scratch_.begin(), scratch_.end(), values.begin());
}

void MpiCollectiveExchange::reduce_sum_now(std::span<double> values, int root) {
    MPI_Request request;
    if (rank_ == root) {
        MPI_Ireduce(MPI_IN_PLACE, values.data(), count(values.size()), MPI_DOUBLE, MPI_SUM, root, comm_, &request);
    } else {
        MPI_Ireduce(values.data(), nullptr, count(values.size()), MPI_DOUBLE, MPI_SUM, root, comm_, &request);
    }
    complete(request, "reduce");
}

void MpiCollectiveExchange::broadcast_now(std::vector<double>& values, int root) {
    std::uint64_t n = values.size();
    MPI_Request request;
    MPI_Ibcast(&n, 1, MPI_UINT64_T, root, comm_, &request);
    complete(request, "broadcast size");
    values.resize(n);
    broadcast_fixed_now(values, root);
}

void MpiCollectiveExchange::broadcast_fixed_now(std::span<double> values, int root) {
    MPI_Request request;
    MPI_Ibcast(values.data(), count(values.size()), MPI_DOUBLE, root, comm_, &request);
    complete(request, "broadcast");
}

}  // namespace hindsight::replay
