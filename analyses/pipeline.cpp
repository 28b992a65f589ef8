#include "analyses/pipeline.hpp"

#include <array>
#include <chrono>
#include <vector>

#include "analyses/profile/collective_statistics.hpp"
#include "analyses/wait_states/collective_wait_states.hpp"
#include "analyses/critical_path/critical_path.hpp"
#include "analyses/delay/delay_costs.hpp"
#include "analyses/profile/message_statistics.hpp"
#include "analyses/wait_states/point_to_point_wait_states.hpp"
#include "analyses/profile/profile.hpp"

namespace hindsight::analyses {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options) {
    AnalysisFindings findings;
    return analyze(trace, engine, options, findings);
}

LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options, AnalysisFindings& findings) {
    return analyze(trace, engine, options, GraphOptions{}, findings);
}

LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine, const AnalysisOptions& options,
                  const GraphOptions& graph_options, AnalysisFindings& findings) {
    LocalCube cube(trace.call_tree.size());
    SynchronizationPoints points;
    points.wait_states.keep(options.critical_path || options.root_cause || options.communication ||
                            graph_options.enabled);

    // Forward pass: the profile and every wait state whose waiting side can
    // see it as the replay moves forward.
    auto start = std::chrono::steady_clock::now();
    std::vector<Ticks> exclusive;  // the profile's, for the critical path
    {
        ProfileAnalysis profile(cube);
        MessageStatistics statistics(cube);
        PointToPointWaitStates point_to_point(cube, points);
        CollectiveWaitStates collectives(cube, points);
        CollectiveStatistics collective_calls(cube);
        const std::array<replay::ReplayObserver*, 5> forward{&profile, &statistics, &point_to_point,
                                                             &collectives, &collective_calls};
        engine.run(forward);
        exclusive = profile.exclusive_ticks();
    }
    findings.forward_seconds = seconds_since(start);
    if (options.communication) {
        findings.communicators = communicator_profile(trace, engine.message_slots(), points.wait_states);
        findings.traffic = traffic_row(trace, engine.message_slots());
    }

    // The backward analyses: round analyses, one after the other.
    if (options.critical_path || options.root_cause) {
        CriticalPathAnalysis critical_path(cube, points, engine.message_slots(), exclusive);
        DelayCostAnalysis delay_costs(cube, points);
        std::vector<RoundAnalysis*> backward;
        if (options.critical_path) backward.push_back(&critical_path);
        if (options.root_cause) backward.push_back(&delay_costs);
        start = std::chrono::steady_clock::now();
        engine.run_rounds("backward pass", [&](replay::Exchange& exchange) {
            for (RoundAnalysis* analysis : backward) analysis->run(trace, points, exchange);
        });
        findings.backward_seconds = seconds_since(start);
        findings.delay_cost_rounds = delay_costs.rounds();
        findings.critical_path = critical_path.counts();
    }

    // The activity graph: a forward pass of its own, since its payloads
    // depend on the pass (the longest path so far) and travel one by one;
    // then its longest path, found in rounds.
    if (graph_options.enabled) {
        std::vector<double> imbalance(cube.call_paths(), 0.0);
        for (CallPathId c = 0; c < imbalance.size(); ++c) imbalance[c] = cube.get(Metric::CriticalPathImbalance, c);
        ActivityGraph graph(points, graph_options, findings.graph, std::move(imbalance));
        const std::array<replay::ReplayObserver*, 1> observers{&graph};
        start = std::chrono::steady_clock::now();
        engine.run(observers);
        engine.run_rounds("activity graph's path", [&](replay::Exchange& exchange) { graph.follow_path(exchange); });
        findings.graph_seconds = seconds_since(start);
    }

    findings.clock_violations = points.clock_violations;
    findings.longest_waits = points.longest_waits.kept();
    return cube;
}

}  // namespace hindsight::analyses
