#include "replay/rank_agreement.hpp"

#include <climits>
#include <vector>

namespace hindsight::replay {

std::optional<std::string> agree_on_problem(MPI_Comm comm, const std::optional<std::string>& local,
                                            ProgressWatch& watch) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    int first = local ? rank : INT_MAX;
    watch.complete("the other ranks to finish the phase", [&](auto& r) {
        MPI_Iallreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm, &r[0]);
    });
    if (first == INT_MAX) return std::nullopt;
    int length = rank == first ? static_cast<int>(local->size()) : 0;
    watch.complete("the length of a problem", [&](auto& r) { MPI_Ibcast(&length, 1, MPI_INT, first, comm, &r[0]); });
    std::string text = rank == first ? *local : std::string(static_cast<std::size_t>(length), '\0');
    watch.complete("the text of a problem",
                   [&](auto& r) { MPI_Ibcast(text.data(), length, MPI_CHAR, first, comm, &r[0]); });
    return text;
}

}  // namespace hindsight::replay
