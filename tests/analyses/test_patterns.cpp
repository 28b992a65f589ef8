// The pattern tables against the metric tree and the operations' shapes:
// each pattern's metrics sit where Scalasca's tree has them, and each
// operation finds the pattern whose detection applies to it.
#include <catch2/catch.hpp>

#include <set>

#include "analyses/patterns.hpp"

using namespace hindsight;
using namespace hindsight::analyses;

namespace {

bool is_below(Metric child, Metric ancestor) {
    for (auto m = info(child).parent; m; m = info(*m).parent)
        if (*m == ancestor) return true;
    return false;
}

}  // namespace

TEST_CASE("every wait-state metric of a pattern is time in MPI, named once") {
    std::set<Metric> seen;
    for (const PatternInfo& row : kWaitPatterns)
        for (const auto metric : {row.wait, row.completion}) {
            if (!metric) continue;
            CHECK(is_below(*metric, Metric::Mpi));
            CHECK(info(*metric).unit == Unit::Seconds);
            CHECK(seen.insert(*metric).second);
        }
    CHECK_FALSE(pattern_info(WaitPattern::None).wait);
    CHECK_FALSE(pattern_info(WaitPattern::None).completion);
}

TEST_CASE("a pattern's delay costs are its aggregate's short- and long-term parts") {
    std::set<Metric> aggregates;
    for (const PatternInfo& row : kWaitPatterns) {
        if (!row.delay) continue;
        INFO(info(row.delay->aggregate).unique_name);
        CHECK(row.wait);
        CHECK(info(row.delay->short_term).parent == row.delay->aggregate);
        CHECK(info(row.delay->long_term).parent == row.delay->aggregate);
        CHECK(info(row.delay->short_term).display_name == "Short-term");
        CHECK(info(row.delay->long_term).display_name == "Long-term");
        CHECK(pattern_of(row.delay->pattern) == row.pattern);
        CHECK(aggregates.insert(row.delay->aggregate).second);
        // Point-to-point patterns arise in no collective shape.
        bool collective = false;
        for (const ShapeInfo& shape : kCollectiveShapes) collective = collective || shape.pattern == row.pattern;
        CHECK(is_below(row.delay->aggregate, collective ? Metric::DelayCollective : Metric::DelayP2p));
    }
    CHECK(aggregates.size() == kCostPatterns);
}

TEST_CASE("each collective operation finds the pattern of its shape") {
    using trace::CollectiveOp;
    CHECK(collective_wait_pattern(CollectiveOp::Barrier) == WaitPattern::Barrier);
    CHECK(collective_wait_pattern(CollectiveOp::Allreduce) == WaitPattern::NxN);
    CHECK(collective_wait_pattern(CollectiveOp::ReduceScatterBlock) == WaitPattern::NxN);
    CHECK(collective_wait_pattern(CollectiveOp::Scatterv) == WaitPattern::LateBroadcast);
    CHECK(collective_wait_pattern(CollectiveOp::Gatherv) == WaitPattern::EarlyReduce);
    CHECK(collective_wait_pattern(CollectiveOp::Exscan) == WaitPattern::EarlyScan);
    CHECK(collective_wait_pattern(CollectiveOp::Init) == WaitPattern::InitCompletion);
    CHECK(collective_wait_pattern(CollectiveOp::Finalize) == WaitPattern::FinalizeWait);
    CHECK(collective_wait_pattern(CollectiveOp::Alltoallv) == WaitPattern::None);
    CHECK(collective_wait_pattern(CollectiveOp::Other) == WaitPattern::None);
    // Only the implicit synchronizations may be left before the last entry.
    for (const ShapeInfo& shape : kCollectiveShapes)
        CHECK(shape.may_leave_early == (shape.shape == CollectiveShape::Init || shape.shape == CollectiveShape::Finalize));
}
