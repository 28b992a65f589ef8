// The arithmetic of Algorithm 1 on its own, with the numbers of the worked
// example in Böhme et al. (TOPC 2016), Figure 3.
#include <catch2/catch.hpp>

#include "analyses/delay/cost_shares.hpp"

using namespace hindsight;
using namespace hindsight::analyses;

namespace {

constexpr auto kLs = static_cast<std::size_t>(CostPattern::LateSender);

}  // namespace

TEST_CASE("cost shares: a propagating wait takes its proportional share", "[delay]") {
    // Wait at R4 on C (2 units) caused by B. On B the interval holds the
    // receive R3 with 1 unit of processing and 3 units of waiting; C did
    // more of everything else. Call paths: 1 = f, 2 = g, 3 = the receive.
    const SparseProfile b{{1, 3}, {1.0, 1.0}};
    const SparseProfile c{{1, 2}, {1.5, 1.5}};
    const Excess excess = excess_over(b, c);
    CHECK(excess.by_entry == std::vector<double>{0.0, 1.0});
    CHECK(excess.total == 1.0);
    const CostScales s = cost_scales(excess.total, 3.0, 2.0, PatternCosts{});
    REQUIRE(s.explained);
    // s = 1 / (1 + 3) = 0.25: the receive's processing gets 2 * 0.25 * 1.
    CHECK(s.short_term * excess.by_entry[1] == Approx(0.5));
    CHECK(s.long_term == PatternCosts{});
    // R3's 3 units of waiting get 2 * 0.25 per unit: gamma_long[R3] = 1.5,
    // which is also the indirect part of the wait at R4.
    CHECK(s.short_term * 3.0 == Approx(1.5));
}

TEST_CASE("cost shares: short- and long-term costs split by the excess", "[delay]") {
    // Wait at R3 on B (3 units, gamma_long 1.5 from a Late Sender) caused by
    // A: f 2 vs 1, g 3 vs 0.
    const SparseProfile a{{1, 2}, {2.0, 3.0}};
    const SparseProfile b{{1, 4}, {1.0, 1.0}};
    const Excess excess = excess_over(a, b);
    PatternCosts long_costs{};
    long_costs[kLs] = 1.5;
    const CostScales s = cost_scales(excess.total, 0.0, 3.0, long_costs);
    REQUIRE(s.explained);
    CHECK(s.short_term * excess.by_entry[0] == Approx(0.75));
    CHECK(s.short_term * excess.by_entry[1] == Approx(2.25));
    CHECK(s.long_term[kLs] * excess.by_entry[0] == Approx(0.375));
    CHECK(s.long_term[kLs] * excess.by_entry[1] == Approx(1.125));
}

TEST_CASE("cost shares: long-term costs keep their pattern", "[delay]") {
    // A barrier wait of 2 that carries 1 unit of Late Sender costs and 0.5
    // of Wait at Barrier costs from later on; the delayer did 4 units more.
    const SparseProfile delayer{{1}, {5.0}};
    const SparseProfile waiter{{1}, {1.0}};
    PatternCosts long_costs{};
    long_costs[kLs] = 1.0;
    long_costs[static_cast<std::size_t>(CostPattern::Barrier)] = 0.5;
    const Excess excess = excess_over(delayer, waiter);
    const CostScales s = cost_scales(excess.total, 0.0, 2.0, long_costs);
    CHECK(s.long_term[kLs] * excess.total == Approx(1.0));
    CHECK(s.long_term[static_cast<std::size_t>(CostPattern::Barrier)] * excess.total == Approx(0.5));
    CHECK(s.long_term[static_cast<std::size_t>(CostPattern::NxN)] == 0.0);
}

TEST_CASE("cost shares: no excess and no waiting explains nothing", "[delay]") {
    const SparseProfile a{{1}, {1.0}};
    const SparseProfile b{{1}, {2.0}};
    const Excess excess = excess_over(a, b);
    CHECK(excess.total == 0.0);
    const CostScales s = cost_scales(excess.total, 0.0, 3.0, PatternCosts{});
    CHECK_FALSE(s.explained);
}
