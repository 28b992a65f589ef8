#include "replay/call_tree_unification.hpp"

#include <cstdint>
#include <vector>

namespace hindsight::replay {
namespace {

std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> displs(counts.size(), 0);
    for (std::size_t i = 1; i < counts.size(); ++i) displs[i] = displs[i - 1] + counts[i - 1];
    return displs;
}

}  // namespace

void unify_call_trees(trace::LocalTrace& trace, MPI_Comm world, ProgressWatch& watch) {
    int rank = 0, size = 1;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);

    // 1. Every rank's serialized tree to rank 0.
    const std::vector<std::uint32_t> local = trace.call_tree.serialize();
    int local_count = static_cast<int>(local.size());
    std::vector<int> counts(rank == 0 ? static_cast<std::size_t>(size) : 0);
    watch.complete("the call-tree sizes of all ranks", [&](auto& r) {
        MPI_Igather(&local_count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world, &r[0]);
    });
    std::vector<int> displs = displacements(counts);
    std::vector<std::uint32_t> all;
    if (rank == 0) all.resize(static_cast<std::size_t>(displs.back() + counts.back()));
    watch.complete("the call trees of all ranks", [&](auto& r) {
        MPI_Igatherv(local.data(), local_count, MPI_UINT32_T, all.data(), counts.data(), displs.data(), MPI_UINT32_T,
                     0, world, &r[0]);
    });

    // 2. Rank 0 merges them in rank order; mapping r: local id -> global id.
    CallTree global;
    std::vector<CallPathId> mappings;
    std::vector<int> mapping_counts(counts.size()), mapping_displs;
    if (rank == 0) {
        for (int r = 0; r < size; ++r) {
            const auto ri = static_cast<std::size_t>(r);
            const CallTree tree = CallTree::deserialize(
                std::span<const std::uint32_t>(all).subspan(static_cast<std::size_t>(displs[ri]),
                                                            static_cast<std::size_t>(counts[ri])));
            const std::vector<CallPathId> mapping = global.merge(tree);
            mapping_counts[ri] = static_cast<int>(mapping.size());
            mappings.insert(mappings.end(), mapping.begin(), mapping.end());
        }
        mapping_displs = displacements(mapping_counts);
    }

    // 3. The global tree to everyone, each rank's mapping to its rank.
    std::vector<std::uint32_t> flat = rank == 0 ? global.serialize() : std::vector<std::uint32_t>{};
    std::uint64_t flat_size = flat.size();
    watch.complete("the size of the global call tree",
                   [&](auto& r) { MPI_Ibcast(&flat_size, 1, MPI_UINT64_T, 0, world, &r[0]); });
    flat.resize(flat_size);
    std::vector<CallPathId> mapping(trace.call_tree.size());
    watch.complete<2>("the global call tree", [&](auto& r) {
        MPI_Ibcast(flat.data(), static_cast<int>(flat_size), MPI_UINT32_T, 0, world, &r[0]);
        MPI_Iscatterv(mappings.data(), mapping_counts.data(), mapping_displs.data(), MPI_UINT32_T, mapping.data(),
                      static_cast<int>(mapping.size()), MPI_UINT32_T, 0, world, &r[1]);
    });

    trace.call_tree = CallTree::deserialize(flat);
    for (trace::Event& e : trace.events) e.cnode = mapping[e.cnode];
    trace.threads.renumber_call_paths(mapping);
}

}  // namespace hindsight::replay
