// The order of a rank's analyses follows from what each declares to read and
// produce: the derivation (stage_order.hpp) and the pipeline's declarations.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string_view>
#include <vector>

#include "analyses/pipeline.hpp"
#include "analyses/stage_order.hpp"

using namespace hindsight::analyses;

namespace {

std::vector<std::string_view> names(const std::vector<StageDeclaration>& stages) {
    std::vector<std::string_view> out;
    for (const std::size_t s : stage_order(stages)) out.push_back(stages[s].name);
    return out;
}

}  // namespace

TEST_CASE("stage order: producers first, otherwise the order given", "[stages]") {
    // Declared backward: the graph reads the facts, the facts come last.
    const std::vector<StageDeclaration> stages{
        {"graph", {Product::ForwardFacts}, {}, {Product::GraphFindings}},
        {"profile per communicator", {Product::ForwardFacts}, {}, {Product::CommunicationFindings}},
        {"critical path", {Product::ForwardFacts, Product::ExclusiveTimes}, {}, {Product::CriticalPathMetrics}},
        {"forward", {}, {}, {Product::ExclusiveTimes, Product::ForwardFacts}},
    };
    CHECK(names(stages) ==
          std::vector<std::string_view>{"forward", "graph", "profile per communicator", "critical path"});
}

TEST_CASE("stage order: what a stage reads if produced orders it only where it is produced", "[stages]") {
    const StageDeclaration forward{"forward", {}, {}, {Product::ForwardFacts}};
    const StageDeclaration graph{"graph", {Product::ForwardFacts}, {Product::CriticalPathMetrics}, {}};
    const StageDeclaration path{"critical path", {Product::ForwardFacts}, {}, {Product::CriticalPathMetrics}};
    CHECK(names({forward, graph, path}) == std::vector<std::string_view>{"forward", "critical path", "graph"});
    CHECK(names({forward, graph}) == std::vector<std::string_view>{"forward", "graph"});
}

TEST_CASE("stage order: contradicting declarations are programming errors", "[stages]") {
    const StageDeclaration forward{"forward", {}, {}, {Product::ForwardFacts}};
    SECTION("a product nobody produces") {
        const StageDeclaration path{"critical path", {Product::ExclusiveTimes}, {}, {Product::CriticalPathMetrics}};
        CHECK_THROWS_WITH(stage_order(std::vector{forward, path}), Catch::Contains("\"critical path\" reads"));
    }
    SECTION("a product of two stages") {
        const StageDeclaration again{"again", {}, {}, {Product::ForwardFacts}};
        CHECK_THROWS_AS(stage_order(std::vector{forward, again}), std::logic_error);
    }
    SECTION("a cycle") {
        const StageDeclaration a{"a", {Product::DelayCostMetrics}, {}, {Product::CriticalPathMetrics}};
        const StageDeclaration b{"b", {}, {Product::CriticalPathMetrics}, {Product::DelayCostMetrics}};
        CHECK_THROWS_WITH(stage_order(std::vector{forward, a, b}), Catch::Contains("cycle"));
    }
    SECTION("a stage reading its own product") {
        const StageDeclaration self{"self", {Product::GraphFindings}, {}, {Product::GraphFindings}};
        CHECK_THROWS_WITH(stage_order(std::vector{forward, self}), Catch::Contains("cycle"));
    }
}

TEST_CASE("the pipeline's declarations give an order under every combination of options", "[stages]") {
    // The forward pass first (everything reads its facts), the backward
    // analyses next, the activity graph after the critical path it takes the
    // imbalance from; the OpenMP threads after the forward pass, whose MPI
    // wait states their idleness costs leave out, and after the delay costs,
    // whose costs at the master's barrier waits they pass on; the critical
    // path after them, since it writes the threads' cubes; what worker
    // threads took part in outside the replay after the threads, on whose
    // cubes it is booked; the wait states of general active target epochs always,
    // after the forward pass.
    for (const bool critical_path : {false, true})
        for (const bool root_cause : {false, true})
            for (const bool graph : {false, true}) {
                CAPTURE(critical_path, root_cause, graph);
                std::vector<std::string_view> expected{"forward pass", "communicator profile", "rma epochs"};
                if (root_cause) expected.push_back("delay costs");
                expected.push_back("openmp threads");
                expected.push_back("worker mpi");
                if (critical_path) expected.push_back("critical path");
                if (graph) expected.push_back("activity graph");
                GraphOptions graph_options;
                graph_options.enabled = graph;
                CHECK(analysis_order({.critical_path = critical_path, .root_cause = root_cause}, graph_options) ==
                      expected);
            }
}
