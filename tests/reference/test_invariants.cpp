// The invariant checker's verdicts on a small report built in memory: one
// that satisfies every invariant, and copies of it that each break one.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/reference/invariants.hpp"

using namespace hindsight::cube;
using reference::check_invariants;
using reference::Violation;

namespace {

// Two ranks; call paths main, main/work, main/MPI_Recv. Stored values (each
// metric including its sub-metrics), all exactly representable:
//   mpi_latesender       MPI_Recv: rank 0 0.5, rank 1 3.0 (3.5 in total)
//     mpi_latesender_wo  MPI_Recv: rank 1 1.0 (part of the 3.0)
//   delay_latesender_aggregate = short-term + long-term, at work:
//     delay_latesender           rank 0 2.0, rank 1 0.5
//     delay_latesender_longterm  rank 0 1.0       (2.5 + 1.0 = 3.5)
//   mpi_wait_direct_latesender    MPI_Recv: rank 0 0.5, rank 1 2.0
//   mpi_wait_indirect_latesender  MPI_Recv: rank 1 1.0
//   mpi_wait_propagating_ls       MPI_Recv: rank 1 1.5
//   critical_path        main: rank 0 4.0; work: rank 0 2.0, rank 1 1.0 (7.0)
// Counting mpi_latesender_wo on top of mpi_latesender would break the delay
// invariant, so the valid report also shows the checker reads the tree.
struct Scenario {
    Report report;
    MetricIndex latesender, wo, aggregate, short_term, long_term, direct, indirect, propagating, critical_path;
    CnodeIndex main, work, recv;
    LocationIndex rank0, rank1;

    Scenario() {
        const auto metric = [&](const char* name, MetricIndex parent) {
            return report.add_metric({name, name, "sec", "", "", DataType::Double, parent});
        };
        latesender = metric("mpi_latesender", kNone);
        wo = metric("mpi_latesender_wo", latesender);
        aggregate = metric("delay_latesender_aggregate", kNone);
        short_term = metric("delay_latesender", aggregate);
        long_term = metric("delay_latesender_longterm", aggregate);
        direct = metric("mpi_wait_direct_latesender", kNone);
        indirect = metric("mpi_wait_indirect_latesender", kNone);
        propagating = metric("mpi_wait_propagating_ls", kNone);
        critical_path = metric("critical_path", kNone);

        const auto region = [&](const char* name) {
            Region r;
            r.name = name;
            return report.add_region(r);
        };
        main = report.add_cnode(region("main"), kNone);
        work = report.add_cnode(region("work"), main);
        recv = report.add_cnode(region("MPI_Recv"), main);

        const SystemNodeIndex node = report.add_system_node({"node", "node", "", kNone});
        rank0 = report.add_location({"Master thread", 0, report.add_location_group({"MPI Rank 0", 0, node})});
        rank1 = report.add_location({"Master thread", 0, report.add_location_group({"MPI Rank 1", 1, node})});

        set(latesender, recv, rank0, 0.5);
        set(latesender, recv, rank1, 3.0);
        set(wo, recv, rank1, 1.0);
        set(short_term, work, rank0, 2.0);
        set(short_term, work, rank1, 0.5);
        set(long_term, work, rank0, 1.0);
        set(aggregate, work, rank0, 3.0);
        set(aggregate, work, rank1, 0.5);
        set(direct, recv, rank0, 0.5);
        set(direct, recv, rank1, 2.0);
        set(indirect, recv, rank1, 1.0);
        set(propagating, recv, rank1, 1.5);
        set(critical_path, main, rank0, 4.0);
        set(critical_path, work, rank0, 2.0);
        set(critical_path, work, rank1, 1.0);
        report.set_value_kind(ValueKind::MetricInclusive);
    }

    void set(MetricIndex m, CnodeIndex c, LocationIndex l, double v) { report.set_value(m, c, l, v); }
};

const reference::InvariantOptions kLength{7.0};

std::vector<std::string> invariants_of(const std::vector<Violation>& violations) {
    std::vector<std::string> names;
    for (const Violation& v : violations) names.push_back(v.invariant);
    return names;
}

}  // namespace

TEST_CASE("a consistent report satisfies every invariant") {
    Scenario s;
    CHECK(check_invariants(s.report, kLength).empty());
}

TEST_CASE("values stored as own shares are checked as the file would store them") {
    Scenario s;
    s.report.to_own_shares();
    CHECK(check_invariants(s.report, kLength).empty());
}

TEST_CASE("delay costs that do not add up to the waiting") {
    Scenario s;
    s.set(s.long_term, s.work, s.rank0, 1.25);  // 2.5 + 1.25 != 3.5
    s.set(s.aggregate, s.work, s.rank0, 3.25);
    const auto violations = check_invariants(s.report, kLength);
    REQUIRE(invariants_of(violations) == std::vector<std::string>{"delay costs"});
    CHECK_THAT(violations[0].detail, Catch::Contains("mpi_latesender") && Catch::Contains("3.75"));
}

TEST_CASE("direct plus indirect waiting that adds up in total but not per cell") {
    Scenario s;
    s.set(s.direct, s.recv, s.rank0, 0.75);  // 0.25 moved from rank 1 to rank 0
    s.set(s.direct, s.recv, s.rank1, 1.75);
    const auto violations = check_invariants(s.report, kLength);
    CHECK(invariants_of(violations) == std::vector<std::string>{"direct+indirect", "direct+indirect"});
    for (const Violation& v : violations) CHECK_THAT(v.detail, Catch::StartsWith("main/MPI_Recv rank "));
}

TEST_CASE("more propagating waiting than waiting") {
    Scenario s;
    s.set(s.propagating, s.recv, s.rank1, 3.25);  // rank 1 waited 3.0; 3.25 < 3.5 in total
    const auto violations = check_invariants(s.report, kLength);
    REQUIRE(invariants_of(violations) == std::vector<std::string>{"propagating"});
    CHECK_THAT(violations[0].detail, Catch::StartsWith("main/MPI_Recv rank 1"));
}

TEST_CASE("sub-metrics worth more than their parent") {
    Scenario s;
    s.set(s.wo, s.recv, s.rank1, 3.5);  // more than the rank's 3.0 of Late Sender
    const auto violations = check_invariants(s.report, kLength);
    REQUIRE(invariants_of(violations) == std::vector<std::string>{"sub-metrics"});
    CHECK_THAT(violations[0].detail, Catch::StartsWith("main/MPI_Recv rank 1: mpi_latesender's own share is -0.5"));
}

TEST_CASE("a critical path of the wrong length") {
    Scenario s;
    CHECK(invariants_of(check_invariants(s.report, {7.5})) == std::vector<std::string>{"critical path"});
    CHECK(check_invariants(s.report).empty());  // no length given: not checked
}

TEST_CASE("checks whose metrics the report does not define are skipped") {
    Report report;
    const MetricIndex latesender = report.add_metric({"mpi_latesender", "", "sec", "", "", DataType::Double, kNone});
    Region main;
    main.name = "main";
    const CnodeIndex root = report.add_cnode(report.add_region(main), kNone);
    const SystemNodeIndex node = report.add_system_node({"node", "node", "", kNone});
    const LocationIndex l = report.add_location({"Master thread", 0, report.add_location_group({"MPI Rank 0", 0, node})});
    report.set_value(latesender, root, l, 1.0);  // waiting without any delay or split metric
    CHECK(check_invariants(report, {1.0}).empty());
}

TEST_CASE("idleness delay costs that do not add up to the idle threads") {
    // One rank of two threads: the worker idles 3.0 s (0.5 of it limited
    // parallelism, which no delay explains); the master's short-term
    // idleness costs are 2.0, the long-term ones 0.5: 2.5, the idle
    // threads' own share. Without the long-term 0.5 they fall short.
    Report report;
    const auto metric = [&](const char* name, MetricIndex parent) {
        return report.add_metric({name, name, "sec", "", "", DataType::Double, parent});
    };
    const MetricIndex idle = metric("omp_idle_threads", kNone), limited = metric("omp_limited_parallelism", idle);
    const MetricIndex aggregate = metric("delay_ompidle_aggregate", kNone);
    const MetricIndex short_term = metric("delay_ompidle", aggregate), long_term = metric("delay_ompidle_longterm", aggregate);
    Region main;
    main.name = "main";
    const CnodeIndex root = report.add_cnode(report.add_region(main), kNone);
    const SystemNodeIndex node = report.add_system_node({"node", "node", "", kNone});
    const LocationGroupIndex group = report.add_location_group({"MPI Rank 0", 0, node});
    const LocationIndex master = report.add_location({"Master thread", 0, group});
    const LocationIndex worker = report.add_location({"OMP thread 1", 1, group});
    report.set_value(idle, root, worker, 3.0);
    report.set_value(limited, root, worker, 0.5);
    report.set_value(short_term, root, master, 2.0);
    report.set_value(long_term, root, worker, 0.5);
    report.set_value(aggregate, root, master, 2.0);
    report.set_value(aggregate, root, worker, 0.5);
    report.set_value_kind(ValueKind::MetricInclusive);
    CHECK(check_invariants(report).empty());
    report.set_value(long_term, root, worker, 0.0);
    report.set_value(aggregate, root, worker, 0.0);
    const auto violations = check_invariants(report);
    REQUIRE(invariants_of(violations) == std::vector<std::string>{"delay costs"});
    CHECK_THAT(violations[0].detail, Catch::Contains("omp_idle_threads") && Catch::Contains("2.5"));
}
