#include "analyzer/communicator_gathering.hpp"

#include <cstring>
#include <type_traits>
#include <vector>

namespace hindsight::analyzer {

analyses::CommunicatorProfile gather_communicator_profile(const analyses::CommunicatorProfile& mine, MPI_Comm world,
                                                          replay::ProgressWatch& watch) {
    using Entry = analyses::CommOperationStats;
    static_assert(std::is_trivially_copyable_v<Entry>);
    int rank = 0, size = 1;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    int bytes = static_cast<int>(mine.size() * sizeof(Entry));
    std::vector<int> counts(static_cast<std::size_t>(rank == 0 ? size : 0));
    watch.complete("the communicator profiles' sizes of all ranks",
                   [&](auto& r) { MPI_Igather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world, &r[0]); });
    std::vector<int> displs;
    int total = 0;
    for (const int c : counts) {
        displs.push_back(total);
        total += c;
    }
    std::vector<std::byte> all(static_cast<std::size_t>(total));
    watch.complete("the communicator profiles of all ranks", [&](auto& r) {
        MPI_Igatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0, world, &r[0]);
    });
    analyses::CommunicatorProfile sum;
    for (std::size_t r = 0; r < counts.size(); ++r) {
        analyses::CommunicatorProfile part(static_cast<std::size_t>(counts[r]) / sizeof(Entry));
        if (!part.empty())
            std::memcpy(static_cast<void*>(part.data()), all.data() + displs[r], part.size() * sizeof(Entry));
        analyses::merge_into(sum, part);
    }
    return sum;
}

}  // namespace hindsight::analyzer
