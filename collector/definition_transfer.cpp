// Moving the local definitions to rank 0 and the id maps back.
#include <exception>
#include <numeric>

#include "collector/definition_transfer.hpp"

namespace hindsight::collect {

namespace {

std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> displs(counts.size(), 0);
    std::partial_sum(counts.begin(), counts.end() - (counts.empty() ? 0 : 1),
                     displs.begin() + (counts.empty() ? 0 : 1));
    return displs;
}

}  // namespace

std::vector<std::vector<std::byte>> gather_to_rank_0(std::span<const std::byte> mine, MPI_Comm comm) {
    int rank = 0;
    int size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int my_size = static_cast<int>(mine.size());
    std::vector<int> sizes(rank == 0 ? static_cast<std::size_t>(size) : 0);
    PMPI_Gather(&my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, comm);
    const std::vector<int> displs = displacements(sizes);
    std::vector<std::byte> all(rank == 0 ? static_cast<std::size_t>(std::accumulate(sizes.begin(), sizes.end(), 0)) : 0);
    PMPI_Gatherv(mine.data(), my_size, MPI_BYTE, all.data(), sizes.data(), displs.data(), MPI_BYTE, 0, comm);
    std::vector<std::vector<std::byte>> parts;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
        const auto begin = all.begin() + displs[r];
        parts.emplace_back(begin, begin + sizes[r]);
    }
    return parts;
}

TransferredDefinitions unify_across_ranks(const LocalDefinitions& local, MPI_Comm comm) {
    return unify_serialized_across_ranks(serialize(local), comm);
}

TransferredDefinitions unify_serialized_across_ranks(std::span<const std::byte> mine, MPI_Comm comm) {
    int rank = 0;
    int size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    TransferredDefinitions out;

    const std::vector<std::vector<std::byte>> all = gather_to_rank_0(mine, comm);

    // Rank 0 sends each rank [region count, comm count, region map...,
    // comm map..., group map...].
    std::vector<std::uint64_t> maps;
    std::vector<int> map_sizes(static_cast<std::size_t>(rank == 0 ? size : 0));
    int unified = 1;
    if (rank == 0) {
        try {
            std::vector<LocalDefinitions> ranks;
            for (int r = 0; r < size; ++r) ranks.push_back(deserialize(all[static_cast<std::size_t>(r)], r));
            out.unified = unify(ranks);
            for (int r = 0; r < size; ++r) {
                const auto& regions = out.unified.region_maps[static_cast<std::size_t>(r)];
                const auto& comms = out.unified.comm_maps[static_cast<std::size_t>(r)];
                const auto& groups = out.unified.group_maps[static_cast<std::size_t>(r)];
                maps.push_back(regions.size());
                maps.push_back(comms.size());
                maps.insert(maps.end(), regions.begin(), regions.end());
                maps.insert(maps.end(), comms.begin(), comms.end());
                maps.insert(maps.end(), groups.begin(), groups.end());
                map_sizes[static_cast<std::size_t>(r)] =
                    static_cast<int>(2 + regions.size() + comms.size() + groups.size());
            }
        } catch (const std::exception& e) {
            unified = 0;
            out.failure = e.what();
        }
    }
    // Before anyone waits for maps, all learn whether rank 0 has them.
    PMPI_Bcast(&unified, 1, MPI_INT, 0, comm);
    if (!unified) {
        out.failed = true;
        out.unified = {};
        return out;
    }
    int my_map_size = 0;
    PMPI_Scatter(map_sizes.data(), 1, MPI_INT, &my_map_size, 1, MPI_INT, 0, comm);
    std::vector<std::uint64_t> my_map(static_cast<std::size_t>(my_map_size));
    const std::vector<int> map_displs = displacements(map_sizes);
    PMPI_Scatterv(maps.data(), map_sizes.data(), map_displs.data(), MPI_UINT64_T, my_map.data(), my_map_size,
                  MPI_UINT64_T, 0, comm);
    if (my_map.size() >= 2) {
        const auto regions = static_cast<std::ptrdiff_t>(my_map[0]);
        const auto comms = static_cast<std::ptrdiff_t>(my_map[1]);
        const auto first = my_map.begin() + 2;
        out.region_map.assign(first, first + regions);
        out.comm_map.assign(first + regions, first + regions + comms);
        out.group_map.assign(first + regions + comms, my_map.end());
    }
    return out;
}

}  // namespace hindsight::collect
