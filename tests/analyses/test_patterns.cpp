// The pattern tables against the metric tree and the operations' shapes:
// each pattern's metrics sit where Scalasca's tree has them, each operation
// finds the pattern whose detection applies to it, each shape carries the
// rules its data flow implies, and the checks of the rows reject broken
// ones.
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
        // Rows that share a cost pattern (one wait seen in different
        // calls) share its metrics; the first of them names it.
        CHECK(pattern_info(pattern_of(row.delay->pattern)).delay->aggregate == row.delay->aggregate);
        aggregates.insert(row.delay->aggregate);
        // Point-to-point patterns arise in no collective shape; the waits
        // of one-sided epochs that one partner ended have a node of their own.
        bool collective = false;
        for (const ShapeInfo& shape : kCollectiveShapes) collective = collective || shape.pattern == row.pattern;
        const Metric parent = collective             ? Metric::DelayCollective
                              : row.point_to_point ? Metric::DelayP2p
                                                   : Metric::DelayRma;
        CHECK(is_below(row.delay->aggregate, parent));
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
    CHECK(collective_wait_pattern(CollectiveOp::Alltoallv) == WaitPattern::NxN);
    CHECK(collective_shape(CollectiveOp::Alltoallw) == CollectiveShape::Sparse);
    CHECK(collective_wait_pattern(CollectiveOp::Other) == WaitPattern::None);
    // Only the implicit synchronizations may be left before the last entry.
    for (const ShapeInfo& shape : kCollectiveShapes)
        CHECK(shape.may_leave_early == (shape.shape == CollectiveShape::Init || shape.shape == CollectiveShape::Finalize));
}

TEST_CASE("each collective operation's bytes go where its data flows") {
    using trace::CollectiveOp;
    CHECK(collective_op_info(CollectiveOp::Reduce).receivers == Receivers::Root);
    CHECK(collective_op_info(CollectiveOp::Gatherv).receivers == Receivers::Root);
    CHECK(collective_op_info(CollectiveOp::Scan).receivers == Receivers::LaterMembersAndSelf);
    CHECK(collective_op_info(CollectiveOp::Exscan).receivers == Receivers::LaterMembers);
    CHECK(collective_op_info(CollectiveOp::Init).receivers == Receivers::Nobody);
    CHECK(collective_op_info(CollectiveOp::Finalize).receivers == Receivers::Nobody);
    CHECK(collective_op_info(CollectiveOp::Bcast).receivers == Receivers::Members);
    CHECK(collective_op_info(CollectiveOp::Alltoallv).receivers == Receivers::Members);
}

TEST_CASE("each shape ties and joins the members as its data flow implies") {
    using S = CollectiveShape;
    // Whom a member that synchronized is tied to: in a broadcast the rank
    // it waited for (the root), in a reduction the root or the last sender;
    // in barriers, N-to-N operations and MPI_Init/MPI_Finalize everybody.
    CHECK(shape_info(S::OneToN).sync_group == SyncGroup::PartnerElseMembers);
    CHECK(shape_info(S::NToOne).sync_group == SyncGroup::PartnerElseRoot);
    for (const S shape : {S::Barrier, S::NToN, S::Prefix, S::Init, S::Finalize, S::Unresolved})
        CHECK(shape_info(shape).sync_group == SyncGroup::Members);
    // How the activity graph joins the members' lengths: nothing at
    // MPI_Init; the root's to the others in a broadcast, all to the root in
    // a reduction, a prefix in a scan, all to all elsewhere (also where the
    // trace does not say who exchanged with whom).
    CHECK(shape_info(S::Init).graph_edges == GraphEdges::None);
    CHECK(shape_info(S::OneToN).graph_edges == GraphEdges::FromRoot);
    CHECK(shape_info(S::NToOne).graph_edges == GraphEdges::ToRoot);
    CHECK(shape_info(S::Prefix).graph_edges == GraphEdges::Prefix);
    for (const S shape : {S::Barrier, S::NToN, S::Finalize, S::Unresolved})
        CHECK(shape_info(shape).graph_edges == GraphEdges::AllToAll);
}

TEST_CASE("the summary's and the page's limits of the wait states") {
    // Start-up and finishing waits below 5 % of the time are noise; the five
    // largest wait states are listed.
    CHECK(metrics::kNoiseShare == 0.05);
    CHECK(metrics::kWaitStatesShown == 5);
    CHECK(metrics::pattern_measured_by(Metric::MpiInitCompletion) == &pattern_info(WaitPattern::InitCompletion));
    CHECK(metrics::pattern_measured_by(Metric::MpiBarrierCompletion) == nullptr);
}

TEST_CASE("the checks of the pattern rows reject broken rows") {
    using metrics::are_valid_patterns;
    const auto good = kWaitPatterns;
    CHECK(are_valid_patterns(good));
    const auto at = [](WaitPattern p) { return static_cast<std::size_t>(p); };
    // Two different waits with the same delay costs.
    auto shared_costs = good;
    shared_costs[at(WaitPattern::EarlyScan)].delay = good[at(WaitPattern::Barrier)].delay;
    CHECK_FALSE(are_valid_patterns(shared_costs));
    // One wait in two calls sharing a cost pattern but not its metrics.
    auto split_costs = good;
    split_costs[at(WaitPattern::RmaCommLatePost)].delay->aggregate = Metric::DelayRmaEarlyWaitAggregate;
    CHECK_FALSE(are_valid_patterns(split_costs));
    // A short-term part that is not below its aggregate.
    auto loose = good;
    loose[at(WaitPattern::NxN)].delay->short_term = Metric::DelayBarrier;
    CHECK_FALSE(are_valid_patterns(loose));
    // Delay costs of waiting the report does not show.
    auto unseen = good;
    unseen[at(WaitPattern::Barrier)].wait = std::nullopt;
    CHECK_FALSE(are_valid_patterns(unseen));
    // One metric for two patterns.
    auto doubled = good;
    doubled[at(WaitPattern::EarlyScan)].wait = Metric::MpiEarlyReduce;
    CHECK_FALSE(are_valid_patterns(doubled));
    // A pattern measured in occurrences.
    auto counted = good;
    counted[at(WaitPattern::EarlyScan)].wait = Metric::MpiSlsCount;
    CHECK_FALSE(are_valid_patterns(counted));
    // A pattern without advice.
    auto mute = good;
    mute[at(WaitPattern::FinalizeWait)].advice = "";
    CHECK_FALSE(are_valid_patterns(mute));
}

TEST_CASE("the checks of the shape rows reject broken rows") {
    const auto good = kCollectiveShapes;
    CHECK(are_valid_shapes(good, kCollectiveOps));
    const auto at = [](CollectiveShape s) { return static_cast<std::size_t>(s); };
    // A point-to-point pattern in a collective shape.
    auto p2p = good;
    p2p[at(CollectiveShape::Barrier)].pattern = WaitPattern::LateSender;
    CHECK_FALSE(are_valid_shapes(p2p, kCollectiveOps));
    // A rooted group where the graph knows no root.
    auto rootless = good;
    rootless[at(CollectiveShape::NToN)].sync_group = SyncGroup::PartnerElseRoot;
    CHECK_FALSE(are_valid_shapes(rootless, kCollectiveOps));
    // No graph edges where ranks wait.
    auto unjoined = good;
    unjoined[at(CollectiveShape::Barrier)].graph_edges = GraphEdges::None;
    CHECK_FALSE(are_valid_shapes(unjoined, kCollectiveOps));
    // Operations out of the trace's order.
    auto ops = kCollectiveOps;
    std::swap(ops[0], ops[1]);
    CHECK_FALSE(are_valid_shapes(good, ops));
}
