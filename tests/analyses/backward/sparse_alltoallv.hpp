// Four ranks exchange in one MPI_Alltoallv whose counts make each receive
// from a few members only, as the trace lists them (its receive sources):
// rank 0 from rank 1, rank 1 from rank 0, rank 2 from ranks 0 and 3, rank 3
// from nobody. Ticks of 1 ns. Rank r (prep p = 10, 20, 5, 40):
//   Init 0-10 | prep 10-(10+p) | MPI_Alltoallv (10+p)-60 | Finalize 60-70
// so the ranks enter the exchange at 20, 30, 15, 50.
//
// Hand-derived values:
//  - Wait at N x N: each rank waits from its entry until the last of its
//    sources entered: rank 0 for rank 1 (30): 10; rank 2 for rank 3 (50):
//    35; rank 1's only source came first, rank 3 has none. (Waiting for
//    every member would give 30, 20 and 35; not knowing the sources, none.)
//  - Delay costs: rank 1 and rank 3, each waited for, synchronized there;
//    all ranks left MPI_Init together at 10. Rank 1's interval holds prep
//    20, rank 0's prep 10: its excess of 10 in prep gets rank 0's 10 ticks.
//    Rank 3's holds prep 40, rank 2's prep 5: 35 ticks to rank 3's prep. All
//    short-term: no wait follows that these could have caused.
//  - Critical path: all ranks enter MPI_Finalize at 60; rank 0, the lowest,
//    holds the path: back through its MPI_Alltoallv to the end of its wait
//    at 30 (30), then on rank 1, the source it waited for, through prep (20)
//    and MPI_Init (10): 60.
//  - Activity graph: each rank takes the lengths of its sources only, so
//    the longest path is the critical path's (taking every member's would
//    put rank 3's 50 ticks before rank 0's 30 in the call: 80).
#pragma once

#include <vector>

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder sparse_alltoallv_trace() {
    TraceBuilder t(4);
    const Ticks prep[] = {10, 20, 5, 40};
    const std::vector<std::vector<int>> sources = {{1}, {0}, {0, 3}, {}};
    for (int r = 0; r < 4; ++r) {
        const Ticks p = prep[r];
        auto& rank = t.rank(r).enter(0, "main").init(0, 10).region(10, 10 + p, "prep");
        const auto received = static_cast<std::uint64_t>(8 * sources[static_cast<std::size_t>(r)].size());
        rank.receive_sources(sources[static_cast<std::size_t>(r)])
            .collective(10 + p, 60, "MPI_Alltoallv", t.world(), -1, 8, received);
        rank.finalize(60, 70).leave(70);
    }
    return t;
}

}  // namespace hindsight::testing
