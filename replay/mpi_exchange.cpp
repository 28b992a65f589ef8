#include "replay/mpi_exchange.hpp"

#include <string>

namespace hindsight::replay {

MpiExchange::MpiExchange(MPI_Comm comm, ProgressWatch& watch) : comm_(comm), watch_(watch), blocks_(comm, watch) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
}

ByteBlocks MpiExchange::all_to_all(const ByteBlocks& outgoing) {
    count_round();
    ByteBlocks incoming;
    blocks_.run_into(outgoing, incoming);
    return incoming;
}

void MpiExchange::sum(std::span<double> values) {
    count_round();
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, comm_, &request);
    watch_.wait(request, [] { return std::string("waits for a sum over all ranks"); });
}

bool MpiExchange::any(bool value) {
    count_round();
    int flag = value ? 1 : 0;
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, &flag, 1, MPI_INT, MPI_LOR, comm_, &request);
    watch_.wait(request, [] { return std::string("waits for the other ranks to finish a round"); });
    return flag != 0;
}

RankedValue MpiExchange::max_loc(double value) {
    count_round();
    struct {
        double value;
        int rank;
    } mine{value, rank_};
    MPI_Request request;
    MPI_Iallreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm_, &request);
    watch_.wait(request, [] { return std::string("waits for a maximum over all ranks"); });
    return {mine.value, mine.rank};
}

}  // namespace hindsight::replay
