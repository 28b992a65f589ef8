// The message exchange the benchmark traces share: a rank and its partner
// (rank ^ 1) each send and receive 1024 bytes, the even rank sending first,
// in the 60 ticks from `t` (6 events per rank).
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::bench {

inline void exchange_with_partner(testing::RankBuilder& rank, int r, Ticks t) {
    const int partner = r ^ 1;
    if (r % 2 == 0)
        rank.send(t + 10, t + 20, partner, 0, 1024).recv(t + 30, t + 60, partner, 0, 1024);
    else
        rank.recv(t + 5, t + 25, partner, 0, 1024).send(t + 40, t + 50, partner, 0, 1024);
}

}  // namespace hindsight::bench
