// An intercommunicator as Score-P writes it, for the tests of the loader and
// of the analysis: groups {0, 1} and {2, 3}, whose records name ranks of the
// other group. Ticks of 1 ns; every rank runs main with MPI_Init (1-5) and
// MPI_Finalize (90-95).
//  - Rank 0 sends to rank 1 of the other group (world rank 3) at 50-55,
//    tag 4, 16 bytes; rank 3 receives from 20 to 56: a Late Sender of 30.
//  - Rank 2 sends to its rank 1 (world rank 1) at 30-31, tag 5, 8 bytes;
//    rank 1 receives from 10 to 32: a Late Sender of 20.
//  - An MPI_Bcast from rank 0 at 60-62 with Score-P's roots: "self" on
//    rank 0, "this group" on rank 1, the root's rank (0) on the other group;
//    rank 0 sends 64 bytes, ranks 2 and 3 receive 32 each.
#pragma once

#include <cstdint>

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline TraceBuilder scorep_intercommunicator_trace() {
    TraceBuilder t(4);
    const Comm inter = t.intercommunicator({0, 1}, {2, 3}, "inter");
    const std::uint32_t roots[] = {OTF2_COLLECTIVE_ROOT_SELF, OTF2_COLLECTIVE_ROOT_THIS_GROUP, 0, 0};
    for (int r = 0; r < 4; ++r) {
        auto& rank = t.rank(r).enter(0, "main").init(1, 5);
        if (r == 0) rank.send(50, 55, 1, 4, 16, inter);
        if (r == 3) rank.recv(20, 56, 0, 4, 16, inter);
        if (r == 2) rank.send(30, 31, 1, 5, 8, inter);
        if (r == 1) rank.recv(10, 32, 0, 5, 8, inter);
        rank.enter(60, "MPI_Bcast")
            .collective_end_event_raw_root(61, OTF2_COLLECTIVE_OP_BCAST, inter, roots[r], r == 0 ? 64 : 0,
                                           r >= 2 ? 32 : 0)
            .leave(62)
            .finalize(90, 95)
            .leave(100);
    }
    return t;
}

}  // namespace hindsight::testing
