// Moving the local definitions to rank 0 and the id maps back.
#include <exception>
#include <numeric>

#include "collector/definition_transfer.hpp"

namespace hindsight::collect {

// Each rank's maps travel as one array: the sizes of the region,
// communicator, group and file maps, then the maps, the handle map last.
constexpr std::size_t kMapSizes = 5;

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

TransferredDefinitions unify_alone(const LocalDefinitions& local) {
    TransferredDefinitions out;
    try {
        out.unified = unify({local});
    } catch (const std::exception& e) {
        out.failed = true;
        out.failure = e.what();
        out.unified = {};
        return out;
    }
    out.region_map = out.unified.region_maps[0];
    out.comm_map = out.unified.comm_maps[0];
    out.group_map = out.unified.group_maps[0];
    out.io_file_map = out.unified.io_file_maps[0];
    out.io_handle_map = out.unified.io_handle_maps[0];
    out.rma_win_map = out.unified.rma_win_maps[0];
    return out;
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
                const auto& files = out.unified.io_file_maps[static_cast<std::size_t>(r)];
                const auto& handles = out.unified.io_handle_maps[static_cast<std::size_t>(r)];
                const auto& windows = out.unified.rma_win_maps[static_cast<std::size_t>(r)];
                // The sizes of all but the last map, then the maps.
                for (const auto* map : {&regions, &comms, &groups, &files, &handles}) maps.push_back(map->size());
                for (const auto* map : {&regions, &comms, &groups, &files, &handles, &windows})
                    maps.insert(maps.end(), map->begin(), map->end());
                map_sizes[static_cast<std::size_t>(r)] = static_cast<int>(kMapSizes + regions.size() + comms.size() +
                                                                          groups.size() + files.size() +
                                                                          handles.size() + windows.size());
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
    if (my_map.size() >= kMapSizes) {
        auto next = my_map.begin() + kMapSizes;
        for (std::size_t m = 0; m < kMapSizes; ++m) {
            const auto size = static_cast<std::ptrdiff_t>(my_map[m]);
            std::vector<std::uint64_t>& map = m == 0 ? out.region_map
                                              : m == 1 ? out.comm_map
                                              : m == 2 ? out.group_map
                                              : m == 3 ? out.io_file_map
                                                       : out.io_handle_map;
            map.assign(next, next + size);
            next += size;
        }
        out.rma_win_map.assign(next, my_map.end());
    }
    return out;
}

}  // namespace hindsight::collect
