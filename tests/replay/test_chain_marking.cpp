// Chain marking on one rank, over an exchange that hands every block back
// to its sender, both ways: by pointer doubling, and followed on rank 0. (Chains across ranks: the critical-path
// tests, tests/analyses/backward.)
#include <catch2/catch.hpp>

#include <numeric>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "replay/chain_marking.hpp"

using namespace hindsight;
using namespace hindsight::replay;

namespace {

class Loopback final : public Exchange {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    ByteBlocks all_to_all(const ByteBlocks& outgoing) override {
        count_round();
        return outgoing.empty() ? ByteBlocks(1) : outgoing;
    }
    void sum(std::span<double>) override { count_round(); }
    bool any(bool value) override {
        count_round();
        return value;
    }
    RankedValue max_loc(double value) override {
        count_round();
        return {value, 0};
    }
};

ChainLink node(std::uint32_t index) { return chain_link(0, index); }

std::vector<int> marked(const ChainMarks& marks) {
    std::vector<int> nodes;
    for (std::size_t v = 0; v < marks.marked.size(); ++v)
        if (marks.marked[v]) nodes.push_back(static_cast<int>(v));
    return nodes;
}

// The largest chain rank 0 follows itself: none (pointer doubling), or all.
std::uint64_t strategy() { return GENERATE(std::uint64_t{0}, kGatheredChainNodes); }

}  // namespace

TEST_CASE("chain marking: marks the chain from its first node, not the branches", "[chain]") {
    // 0 -> 3 -> 1 -> end; 2 -> 1 and 4 -> end are off the chain.
    Loopback exchange;
    const std::vector<ChainLink> successors{node(3), kChainEnd, node(1), node(1), kChainEnd};
    const std::uint64_t gather_up_to = strategy();
    const ChainMarks marks = mark_chain(exchange, successors, node(0), "trace", gather_up_to);
    CHECK(marked(marks) == std::vector<int>{0, 1, 3});
    CHECK(marks.nodes == 5);
    CHECK(marks.gathered == (gather_up_to > 0));
    // Doubling: J_0, J_1 (0 -> 1); J_2 leads nowhere.
    CHECK(marks.levels == (marks.gathered ? 0u : 2u));
}

TEST_CASE("chain marking: several chains without a common node, in the same rounds", "[chain]") {
    // 0 -> 2 -> end and 5 -> 1 -> 3 -> end; 4 -> 3 is off both.
    Loopback exchange;
    const std::vector<ChainLink> successors{node(2), node(3), kChainEnd, kChainEnd, node(3), node(1)};
    const std::vector<ChainLink> firsts{node(0), node(5)};
    const std::uint64_t gather_up_to = strategy();
    const ChainMarks marks = mark_chains(exchange, successors, firsts, "trace", gather_up_to);
    CHECK(marked(marks) == std::vector<int>{0, 1, 2, 3, 5});
    // As many doubling levels as the longer chain alone takes.
    const ChainMarks longer = mark_chain(exchange, successors, node(5), "trace", gather_up_to);
    CHECK(marked(longer) == std::vector<int>{1, 3, 5});
    CHECK(marks.levels == longer.levels);
}

TEST_CASE("chain marking: a long chain takes logarithmically many levels", "[chain]") {
    // 1000 nodes, each leading to the one before: 999 links.
    Loopback exchange;
    std::vector<ChainLink> successors{kChainEnd};
    for (std::uint32_t v = 1; v < 1000; ++v) successors.push_back(node(v - 1));
    const std::uint64_t gather_up_to = strategy();
    const std::uint64_t rounds = exchange.rounds();
    const ChainMarks marks = mark_chain(exchange, successors, node(999), "trace", gather_up_to);
    CHECK(marked(marks).size() == 1000);
    if (marks.gathered) {
        CHECK(exchange.rounds() - rounds == 3);  // the count, the gathering, the marks
    } else {
        CHECK(marks.levels == 10);  // 2^9 <= 999 < 2^10
    }

    const ChainMarks middle = mark_chain(exchange, successors, node(499), "trace", gather_up_to);
    std::vector<int> first_half(500);
    std::iota(first_half.begin(), first_half.end(), 0);
    CHECK(marked(middle) == first_half);
}

TEST_CASE("chain marking: no first node, nothing marked", "[chain]") {
    Loopback exchange;
    const std::uint64_t gather_up_to = strategy();
    const std::vector<ChainLink> successors{node(1), kChainEnd};
    CHECK(marked(mark_chain(exchange, successors, kChainEnd, "trace", gather_up_to)).empty());
    CHECK(marked(mark_chain(exchange, {}, kChainEnd, "trace", gather_up_to)).empty());
}

TEST_CASE("chain marking: a cycle or a link to a missing node is an error of the input", "[chain]") {
    Loopback exchange;
    const std::uint64_t gather_up_to = strategy();
    const std::vector<ChainLink> cycle{node(1), node(2), node(0)};
    CHECK_THROWS_WITH(mark_chain(exchange, cycle, node(0), "trace.otf2", gather_up_to),
                      Catch::Contains("trace.otf2") && Catch::Contains("cycle"));
    const std::vector<ChainLink> missing{node(5), kChainEnd};
    CHECK_THROWS_WITH(mark_chain(exchange, missing, node(0), "trace.otf2", gather_up_to),
                      Catch::Contains("trace.otf2") && Catch::Contains("node 5"));
    const std::vector<ChainLink> other_rank{chain_link(3, 0)};
    CHECK_THROWS_WITH(mark_chain(exchange, other_rank, node(0), "trace.otf2", gather_up_to),
                      Catch::Contains("rank 3"));
}
