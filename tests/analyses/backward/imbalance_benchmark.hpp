// The synthetic load-imbalance benchmark of Böhme et al. (IPDPS 2012,
// Section IV-A) in small: 4 ranks run N iterations of work() followed by a
// barrier. The total work is the same in every scenario (4 w per
// iteration); in the imbalanced ones one rank per iteration works w + x and
// the others w - x/3, so every iteration takes x longer than when balanced:
//   static  — rank 0 is the overloaded one in every iteration;
//   dynamic — iteration i overloads rank i mod 4, so over the run every
//             rank works the same (4 divides N);
//   mixed   — rank 0 in the first half, rank 1 in the second.
// The critical path runs through the overloaded rank's work() in every
// iteration: N (w + x) on the path against N w on average, so its
// imbalance is N x in all three. The per-process profile (max - avg of a
// rank's time in work()) sees N x (static), 0 (dynamic) and, for the
// mixed case, rank 0's N/2 (w + x) + N/2 (w - x/3) = N w + N x / 3 minus
// the average N w: N x / 3 (the paper's "half" is the limit for many ranks:
// (N x / 2)(1 - 1 / (P - 1))).
#pragma once

#include <functional>

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline constexpr int kRanks = 4;
inline constexpr int kIterations = 8;
inline constexpr Ticks kWork = 1000;  // w
inline constexpr Ticks kExtra = 300;  // x (divisible by 3)
inline constexpr Ticks kInit = 10;

// overloaded(i): the rank that works w + x in iteration i, or -1.
inline TraceBuilder imbalance_benchmark(const std::function<int(int)>& overloaded) {
    TraceBuilder t(kRanks);
    for (int rank = 0; rank < kRanks; ++rank) t.rank(rank).enter(0, "main").init(0, kInit);
    Ticks start = kInit;
    for (int i = 0; i < kIterations; ++i) {
        const int heavy = overloaded(i);
        const Ticks longest = heavy < 0 ? kWork : kWork + kExtra;
        for (int rank = 0; rank < kRanks; ++rank) {
            const Ticks work = heavy < 0 ? kWork : rank == heavy ? kWork + kExtra : kWork - kExtra / 3;
            t.rank(rank).region(start, start + work, "work").barrier(start + work, start + longest);
        }
        start += longest;
    }
    for (int rank = 0; rank < kRanks; ++rank) t.rank(rank).finalize(start, start + kInit).leave(start + kInit);
    return t;
}

}  // namespace hindsight::testing
