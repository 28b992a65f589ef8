#include "replay/rank_agreement.hpp"

#include <climits>
#include <vector>

namespace hindsight::replay {

std::optional<std::string> agree_on_problem(MPI_Comm comm, const std::optional<std::string>& local) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    int first = local ? rank : INT_MAX;
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == INT_MAX) return std::nullopt;
    int length = rank == first ? static_cast<int>(local->size()) : 0;
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    std::string text = rank == first ? *local : std::string(static_cast<std::size_t>(length), '\0');
    MPI_Bcast(text.data(), length, MPI_CHAR, first, comm);
    return text;
}

}  // namespace hindsight::replay
