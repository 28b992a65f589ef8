// The arithmetic of Algorithm 1 on its own, with the numbers of the worked
// example in Böhme et al. (TOPC 2016), Figure 3.
#include <catch2/catch.hpp>

#include "analyses/cost_shares.hpp"

using namespace hindsight;

TEST_CASE("cost shares: a propagating wait takes its proportional share", "[delay]") {
    // Wait at R4 on C (2 units) caused by B. On B the interval holds the
    // receive R3 with 1 unit of processing and 3 units of waiting; C did
    // more of everything else. Call paths: 1 = f, 2 = g, 3 = the receive.
    const SparseProfile b{{1, 3}, {1.0, 1.0}};
    const SparseProfile c{{1, 2}, {1.5, 1.5}};
    const CostShares s = share_costs(b, 3.0, c, 2.0, 0.0);
    REQUIRE(s.explained);
    // s = 1 / (1 + 3) = 0.25: the receive's processing gets 2 * 0.25 * 1.
    CHECK(s.short_term == std::vector<double>{0.0, 0.5});
    CHECK(s.long_term == std::vector<double>{0.0, 0.0});
    // R3's 3 units of waiting get 2 * 0.25 per unit: gamma_long[R3] = 1.5.
    CHECK(s.per_waiting_tick * 3.0 == Approx(1.5));
    CHECK(s.indirect == Approx(1.5));
}

TEST_CASE("cost shares: short- and long-term costs split by the excess", "[delay]") {
    // Wait at R3 on B (3 units, gamma_long 1.5) caused by A: f 2 vs 1, g 3 vs 0.
    const SparseProfile a{{1, 2}, {2.0, 3.0}};
    const SparseProfile b{{1, 4}, {1.0, 1.0}};
    const CostShares s = share_costs(a, 0.0, b, 3.0, 1.5);
    REQUIRE(s.explained);
    CHECK(s.short_term[0] == Approx(0.75));
    CHECK(s.short_term[1] == Approx(2.25));
    CHECK(s.long_term[0] == Approx(0.375));
    CHECK(s.long_term[1] == Approx(1.125));
    CHECK(s.indirect == 0.0);
}

TEST_CASE("cost shares: no excess and no waiting explains nothing", "[delay]") {
    const SparseProfile a{{1}, {1.0}};
    const SparseProfile b{{1}, {2.0}};
    const CostShares s = share_costs(a, 0.0, b, 3.0, 1.0);
    CHECK_FALSE(s.explained);
    CHECK(s.short_term.empty());
}
