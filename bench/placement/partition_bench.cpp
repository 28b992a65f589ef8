// Times the placement advice (analyzer/placement.*: the METIS partition,
// the capacity repair and the three mappings' inter-node bytes) on synthetic
// communication matrices: a 2-D halo exchange (each rank sends to its four
// neighbours on a periodic rows x columns grid, rows the largest divisor of
// RANKS up to its square root) plus, per rank, one message to a random
// far-away rank, so that no mapping is exact.
//   partition_bench CORES_PER_NODE RANKS...
// One line per size: ranks nodes cells seconds block_bytes round_robin_bytes advised_bytes advised/block
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "analyzer/placement.hpp"

using hindsight::analyses::TrafficCell;

namespace {

std::vector<TrafficCell> halo_matrix(int ranks) {
    int rows = 1;
    for (int d = 1; d * d <= ranks; ++d)
        if (ranks % d == 0) rows = d;
    const int columns = ranks / rows;
    std::vector<TrafficCell> cells;
    std::mt19937 random(42);
    std::uniform_int_distribution<int> any(0, ranks - 1);
    for (int r = 0; r < ranks; ++r) {
        const int row = r / columns, column = r % columns;
        const int neighbours[4] = {((row + rows - 1) % rows) * columns + column, ((row + 1) % rows) * columns + column,
                                   row * columns + (column + columns - 1) % columns, row * columns + (column + 1) % columns};
        for (const int n : neighbours)
            if (n != r) cells.push_back({r, n, 100, 100 * 8192, 0});
        const int far = any(random);
        if (far != r) cells.push_back({r, far, 10, 10 * 8192, 0});
    }
    return cells;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: partition_bench CORES_PER_NODE RANKS...\n");
        return EXIT_FAILURE;
    }
    const int cores = std::atoi(argv[1]);
    std::printf("ranks nodes cells seconds block_bytes round_robin_bytes advised_bytes advised/block\n");
    for (int i = 2; i < argc; ++i) {
        const int ranks = std::atoi(argv[i]);
        const std::vector<TrafficCell> cells = halo_matrix(ranks);
        const auto start = std::chrono::steady_clock::now();
        const hindsight::analyzer::PlacementAdvice advice = hindsight::analyzer::advise_placement(ranks, cells, cores);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        const auto block = advice.mappings[0].inter_node_bytes;
        const auto advised = advice.mappings[2].inter_node_bytes;
        std::printf("%d %d %zu %.3f %llu %llu %llu %.3f\n", ranks, advice.nodes, cells.size(), took.count(),
                    static_cast<unsigned long long>(block),
                    static_cast<unsigned long long>(advice.mappings[1].inter_node_bytes),
                    static_cast<unsigned long long>(advised),
                    block ? static_cast<double>(advised) / static_cast<double>(block) : 1.0);
    }
    return EXIT_SUCCESS;
}
