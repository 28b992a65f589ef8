#include <catch2/catch.hpp>

#include <stdexcept>

#include "common/cube/names.hpp"
#include "common/cube/numbering.hpp"
#include "common/cube/query.hpp"
#include "common/cube/report.hpp"
#include "cube_fixture.hpp"

using namespace hindsight::cube;
using cube_test::make_fixture;

TEST_CASE("cube report: unset values are zero and values accumulate") {
    auto f = make_fixture();
    CHECK(f.report.value(f.latesender, f.main, f.r0t0) == 0.0);
    CHECK(f.report.value(f.time, f.compute, f.r1t1) == 12.5);
    f.report.add_value(f.time, f.compute, f.r1t1, 0.5);
    CHECK(f.report.value(f.time, f.compute, f.r1t1) == 13.0);
    f.report.set_value(f.time, f.compute, f.r1t1, 2.0);
    CHECK(f.report.value(f.time, f.compute, f.r1t1) == 2.0);
    CHECK_THROWS_AS(f.report.value(f.time, 99, f.r0t0), std::out_of_range);
}

TEST_CASE("cube report: converting to metric-inclusive values adds each metric's sub-metrics") {
    auto f = make_fixture();
    f.report.to_metric_inclusive();
    REQUIRE(f.report.value_kind() == ValueKind::MetricInclusive);
    // time at main/MPI_Recv on rank 0: own 0 + mpi 0.25 + late sender 1.5.
    CHECK(f.report.value(f.time, f.main_recv, f.r0t0) == 1.75);
    // mpi at main/compute/MPI_Recv on rank 1: own 0.25 + late sender 3.
    CHECK(f.report.value(f.mpi, f.compute_recv, f.r1t0) == 3.25);
    // time at main/MPI_Barrier on rank 1: mpi 0.5 + barrier wait 0.0625.
    CHECK(f.report.value(f.time, f.main_barrier, f.r1t0) == 0.5625);
    // Leaves and separate roots are unchanged.
    CHECK(f.report.value(f.latesender, f.compute_recv, f.r1t0) == 3.0);
    CHECK(f.report.value(f.visits, f.compute, f.r1t1) == 120.0);
    CHECK(total(f.report, "time") == 56.9375);

    f.report.to_metric_inclusive();  // already inclusive: nothing changes
    CHECK(f.report.value(f.time, f.main_recv, f.r0t0) == 1.75);

    f.report.to_own_shares();
    const auto original = make_fixture();
    for (MetricIndex m = 0; m < f.report.metrics().size(); ++m)
        for (CnodeIndex c = 0; c < f.report.cnodes().size(); ++c)
            for (LocationIndex l = 0; l < f.report.locations().size(); ++l)
                CHECK(f.report.value(m, c, l) == original.report.value(m, c, l));
}

TEST_CASE("cube report: structure is checked as it is built") {
    Report r;
    CHECK_THROWS_AS(r.add_metric({"x", "X", "sec", "", "", DataType::Double, 3}), std::invalid_argument);
    r.add_metric({"x", "X", "sec", "", "", DataType::Double, kNone});
    CHECK_THROWS_AS(r.add_metric({"x", "X again", "sec", "", "", DataType::Double, kNone}), std::invalid_argument);
    CHECK_THROWS_AS(r.add_cnode(0, kNone), std::invalid_argument);  // no region yet
    const RegionIndex main = r.add_region(cube_test::region_named("main"));
    const CnodeIndex root = r.add_cnode(main, kNone);
    CHECK_THROWS_AS(r.add_cnode(main, 5), std::invalid_argument);
    CHECK_THROWS_AS(r.add_location_group({"p", 0, 0}), std::invalid_argument);  // no system node yet
    const SystemNodeIndex machine = r.add_system_node({"m", "machine", "", kNone});
    const LocationGroupIndex p = r.add_location_group({"p", 0, machine});
    CHECK_THROWS_AS(r.add_location_group({"q", -1, machine}), std::invalid_argument);
    const LocationIndex t = r.add_location({"t", 0, p});
    r.set_value(0, root, t, 1.0);
    // Values are laid out by location: no more locations once values exist.
    CHECK_THROWS_AS(r.add_location({"t2", 1, p}), std::invalid_argument);
    // New call paths get rows of zeros.
    const CnodeIndex child = r.add_cnode(main, root);
    CHECK(r.value(0, child, t) == 0.0);
    CHECK(r.value(0, root, t) == 1.0);
}

TEST_CASE("cube report: Cartesian topologies place known locations inside their grid") {
    Report r;
    const SystemNodeIndex machine = r.add_system_node({"m", "machine", "", kNone});
    const LocationGroupIndex p = r.add_location_group({"p", 0, machine});
    const LocationIndex t = r.add_location({"t", 0, p});
    r.add_topology({"grid", {2, 3}, {true, false}, {{t, {1, 2}}}});
    REQUIRE(r.topologies().size() == 1);
    CHECK(r.topologies()[0].coords[0].second == std::vector<std::int64_t>{1, 2});
    CHECK_THROWS_AS(r.add_topology({"no such location", {2}, {false}, {{t + 1, {0}}}}), std::invalid_argument);
    CHECK_THROWS_AS(r.add_topology({"outside", {2, 3}, {false, false}, {{t, {0, 3}}}}), std::invalid_argument);
    CHECK_THROWS_AS(r.add_topology({"one coordinate", {2, 3}, {false, false}, {{t, {0}}}}), std::invalid_argument);
    CHECK_THROWS_AS(r.add_topology({"periods", {2, 3}, {false}, {}}), std::invalid_argument);
}

TEST_CASE("cube report: lookups by name") {
    const auto f = make_fixture();
    CHECK(f.report.find_metric("mpi_barrier_wait") == f.barrier_wait);
    CHECK(f.report.find_metric("nope") == kNone);
    CHECK(f.report.find_cnode({"main", "compute", "MPI_Recv"}) == f.compute_recv);
    CHECK(f.report.find_cnode({"main", "MPI_Recv"}) == f.main_recv);
    CHECK(f.report.find_cnode({"compute"}) == kNone);
    CHECK(f.report.metric_children(f.mpi) == std::vector<MetricIndex>{f.latesender, f.barrier_wait});
    CHECK(f.report.cnode_children(f.main) == std::vector<CnodeIndex>{f.compute, f.main_recv, f.main_barrier});
}

TEST_CASE("cube queries sum by rank, call path and subtree") {
    auto f = make_fixture();
    f.report.to_metric_inclusive();
    const auto& r = f.report;
    CHECK(value_at(r, "time", {"main", "MPI_Recv"}, 2) == 0.875);        // 0.75 + 0.125
    CHECK(value_at(r, "time", {"main", "compute"}, 1) == 24.5);          // two threads: 12 + 12.5
    CHECK(sum_over_ranks(r, "mpi", {"main", "MPI_Barrier"}) == 3.5625);  // 1.5 + 2.0625
    CHECK(sum_over_call_paths(r, "time", 1) == 30.3125);
    CHECK(subtree_sum(r, "time", {"main", "compute"}) == 45.75);         // 42.5 + 3.25
    CHECK(subtree_sum(r, "time", {"main", "compute"}, 0) == 10.0);
    CHECK(total(r, "visits") == 439.0);
    CHECK_THROWS_AS(total(r, "nope"), std::out_of_range);
    CHECK_THROWS_AS(value_at(r, "time", {"main", "nope"}, 0), std::out_of_range);
    CHECK_THROWS_AS(value_at(r, "time", {"main"}, 7), std::out_of_range);
}

TEST_CASE("cube file numbering is depth-first preorder in every dimension") {
    const auto f = make_fixture();
    const FileNumbering n = number_for_file(f.report);
    // metrics: time, mpi, latesender, barrier_wait, visits
    CHECK(n.metrics == std::vector<MetricIndex>{f.time, f.mpi, f.latesender, f.barrier_wait, f.visits});
    // call paths: main, compute, compute/MPI_Recv, MPI_Recv, MPI_Barrier
    CHECK(n.cnodes == std::vector<CnodeIndex>{f.main, f.compute, f.compute_recv, f.main_recv, f.main_barrier});
    // threads: node n0 (rank 0, rank 1 threads 0 and 1), then n1 (rank 2)
    CHECK(n.locations == std::vector<LocationIndex>{f.r0t0, f.r1t0, f.r1t1, f.r2t0});
    CHECK(n.cnode_id[f.compute_recv] == 2);
    CHECK(n.location_id[f.r2t0] == 3);
}

TEST_CASE("cube paradigm and role words round-trip") {
    CHECK(paradigm_name(hindsight::Paradigm::Mpi) == "mpi");
    CHECK(role_name(hindsight::RegionRole::ImplicitBarrier) == "implicit barrier");
    CHECK(role_from_name("point2point") == hindsight::RegionRole::Point2Point);
    CHECK(paradigm_from_name("openmp") == hindsight::Paradigm::OpenMp);
    CHECK(role_name(hindsight::RegionRole::CriticalSblock) == "critical sblock");
    CHECK(paradigm_from_name("pthread") == hindsight::Paradigm::Unknown);
    for (int i = 0; i <= static_cast<int>(hindsight::RegionRole::Other); ++i) {
        const auto role = static_cast<hindsight::RegionRole>(i);
        CHECK(role_from_name(role_name(role)) == role);
    }
}
