#include "analyses/pipeline.hpp"

#include <array>
#include <chrono>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analyses/critical_path/critical_path.hpp"
#include "analyses/delay/delay_costs.hpp"
#include "analyses/delay/thread_points.hpp"
#include "analyses/openmp/thread_barrier_waits.hpp"
#include "analyses/openmp/openmp_analysis.hpp"
#include "analyses/openmp/thread_idleness.hpp"
#include "analyses/profile/collective_statistics.hpp"
#include "analyses/profile/message_statistics.hpp"
#include "analyses/profile/profile.hpp"
#include "analyses/stage_order.hpp"
#include "analyses/thread_collective_waits.hpp"
#include "analyses/thread_profile.hpp"
#include "analyses/thread_teams.hpp"
#include "analyses/timeline/lane_cutter.hpp"
#include "analyses/wait_states/collective_wait_states.hpp"
#include "analyses/wait_states/point_to_point_wait_states.hpp"
#include "analyses/wait_states/rma_ending_calls.hpp"
#include "analyses/wait_states/rma_epoch_wait_states.hpp"
#include "analyses/wait_states/rma_lock_wait_states.hpp"
#include "analyses/wait_states/worker_mpi_wait_states.hpp"

namespace hindsight::analyses {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What the analyses of one rank share while they run: what they analyze,
// what they write, and the products they hand on (stage_order.hpp).
struct Run {
    const trace::LocalTrace& trace;
    replay::ReplayEngine& engine;
    const AnalysisOptions& options;
    const GraphOptions& graph;
    LocalCube& cube;
    AnalysisFindings& findings;
    std::vector<Ticks> exclusive;             // Product::ExclusiveTimes
    std::optional<const ForwardFacts> facts;  // Product::ForwardFacts, read-only once there
    std::vector<LaneInterval> critical_segments;  // with Product::CriticalPathMetrics
    std::vector<BarrierWaitCosts> barrier_wait_costs;      // with Product::DelayCostMetrics
    std::vector<MasterMpiWait> master_mpi_waits;           // with Product::DelayCostMetrics
    std::vector<ThreadCharge> thread_charges;              // with Product::DelayCostMetrics
    RmaWaits rma_waits;                                    // Product::RmaEpochWaits
};

// One analysis: what it reads and produces, whether it runs under the
// options, and how.
struct Stage {
    StageDeclaration declared;
    bool (*enabled)(const AnalysisOptions&, const GraphOptions&);
    void (*run)(Run&);
};

bool always(const AnalysisOptions&, const GraphOptions&) { return true; }

// The forward pass: the profile and every wait state whose waiting side can
// see it as the replay moves forward; its wait-state observers, the
// receivers' notes at the end of the pass included, make the facts.
void forward_pass(Run& r) {
    const auto start = std::chrono::steady_clock::now();
    ForwardFactsBuilder facts;
    {
        ProfileAnalysis profile(r.cube);
        MessageStatistics statistics(r.cube);
        PointToPointWaitStates point_to_point(r.cube, facts);
        CollectiveWaitStates collectives(r.cube, facts);
        CollectiveStatistics collective_calls(r.cube);
        const std::array<replay::ReplayObserver*, 5> forward{&profile, &statistics, &point_to_point, &collectives,
                                                             &collective_calls};
        r.engine.run("forward pass", forward);
        r.exclusive = profile.exclusive_ticks();
    }
    r.facts.emplace(std::move(facts).finish());
    r.findings.forward_seconds = seconds_since(start);
    r.findings.clock_violations = r.facts->clock_violations();
    r.findings.longest_waits = r.facts->longest_waits().kept();
}

// Round analyses (round_analysis.hpp): their rounds of bulk exchanges,
// named as their stage for the progress display and the statistics.
void run_rounds(Run& r, const char* name, std::initializer_list<RoundAnalysis*> analyses) {
    const auto start = std::chrono::steady_clock::now();
    r.engine.run_rounds(name, [&](replay::Exchange& exchange) {
        for (RoundAnalysis* analysis : analyses) analysis->run(r.trace, *r.facts, exchange);
    });
    r.findings.backward_seconds += seconds_since(start);
}

// What a hybrid rank's threads add to its delay analysis (HybridRank,
// delay_costs.hpp); `barrier_waits` the barrier waits it lists, in order.
HybridRank hybrid_rank(Run& r, std::vector<ThreadBarrierWait>& barrier_waits) {
    HybridRank hybrid;
    if (r.trace.threads.size() <= 1) return hybrid;
    const ThreadTeams teams = find_thread_teams(r.trace);
    hybrid.team_starts = team_starts(r.trace, teams);
    // A worker's barrier waits lie in its own intervals only, which it has
    // where it has messages or collective operations of its own, as its team
    // starts say.
    const std::size_t threads = hybrid.team_starts.empty() ? 1 : r.trace.threads.size();
    for (std::uint32_t t = 0; t < threads; ++t)
        for (const ThreadBarrierWait& w : thread_barrier_waits(r.trace, teams, t)) {
            barrier_waits.push_back(w);
            hybrid.barrier_waits.push_back({w.enter, w.leave, w.wait, t});
        }
    hybrid.team_edges = master_team_edges(r.trace, teams);
    hybrid.workers = r.trace.threads.size() - 1;
    hybrid.in_parallel = parallel_call_paths(r.trace);
    r.master_mpi_waits = master_mpi_waits(r.trace, teams, r.facts->wait_states());
    hybrid.barrier_costs = barrier_costs_of_mpi_waits(r.trace, teams, r.master_mpi_waits);
    return hybrid;
}

void delay_costs(Run& r) {
    std::vector<ThreadBarrierWait> barrier_waits;
    DelayCostAnalysis delay_costs(r.cube, hybrid_rank(r, barrier_waits), r.rma_waits);
    run_rounds(r, "delay costs", {&delay_costs});
    r.findings.delay_cost_rounds = delay_costs.rounds();
    r.findings.delay_costs_passed_early = delay_costs.passed_early();
    r.thread_charges = delay_costs.thread_charges();
    for (std::size_t w = 0; w < barrier_waits.size(); ++w)
        r.barrier_wait_costs.push_back({barrier_waits[w].region, barrier_waits[w].barrier, barrier_waits[w].thread,
                                        delay_costs.barrier_wait_costs()[w]});
}

// A window around each of the longest waits the options ask for: every
// rank learns all ranks' longest waits, picks the same windows and cuts its
// lane of each. A window holds at most kWindowEvents events over all its
// lanes, but a lane at least kLaneEvents.
void timeline_lanes(Run& r) {
    constexpr std::size_t kWindowEvents = 10000;
    constexpr std::size_t kLaneEvents = 100;
    std::vector<std::vector<WaitInstance>> by_rank;
    r.engine.run_rounds("timeline windows", [&](replay::Exchange& exchange) {
        by_rank = share_waits(exchange, r.facts->longest_waits().kept());
    });
    r.findings.timeline_windows = choose_windows(by_rank, r.options.timeline_waits);
    const LaneCutter cutter(r.trace, *r.facts, r.engine.message_slots(), r.critical_segments,
                            std::max(kLaneEvents, kWindowEvents / std::max<std::size_t>(by_rank.size(), 1)));
    ByteWriter lanes;
    for (const TimelineWindow& window : r.findings.timeline_windows) cutter.cut(window).write(lanes);
    r.findings.timeline_lanes = lanes.take();
}

// The analyses. A new one is a row: what it reads and produces (a new
// product goes into the enum of stage_order.hpp), when it runs, and a
// function that runs it; the order follows from the declarations.
const std::vector<Stage>& stages() {
    static const std::vector<Stage> table{
        {{"forward pass", {}, {}, {Product::ExclusiveTimes, Product::ForwardFacts}}, always, forward_pass},
        // The profile per communicator and the matrix row are read off the
        // rank's events and wait states (communication.md).
        {{"communicator profile", {Product::ForwardFacts}, {}, {Product::CommunicationFindings}}, always,
         [](Run& r) {
             r.findings.communicators = communicator_profile(r.trace, r.engine.message_slots(), r.facts->wait_states());
             r.findings.traffic = traffic_row(r.trace, r.engine.message_slots());
         }},
        // The wait states of general active target epochs and of passive
        // target (lock) epochs, from what each side of an epoch tells the
        // other (wait_states/rma_epoch_wait_states.hpp, rma_lock_wait_states.hpp).
        // Each wait goes to the delay analysis too, with the partner's call
        // that ended it (rma_waits.hpp).
        {{"rma epochs", {Product::ForwardFacts}, {}, {Product::RmaEpochMetrics, Product::RmaEpochWaits}}, always,
         [](Run& r) {
             RmaEpochWaitStates epochs(r.cube, r.rma_waits);
             RmaLockWaitStates locks(r.cube, r.rma_waits);
             RmaEndingCalls ending(r.rma_waits);
             run_rounds(r, "rma epochs", {&epochs, &locks, &ending});
         }},
        // The worker threads' profiles and the OpenMP patterns, read off
        // the rank's own thread streams (openmp/openmp_analysis.hpp).
        // After the delay costs, where they run: the MPI costs that the
        // master's barrier waits passed on go to the threads that delayed
        // them.
        {{"openmp threads", {Product::ForwardFacts, Product::ExclusiveTimes}, {Product::DelayCostMetrics},
          {Product::ThreadMetrics}},
         always,
         [](Run& r) {
             ThreadFindings threads =
                 analyze_threads(r.trace, r.cube, r.exclusive, r.barrier_wait_costs, r.master_mpi_waits);
             r.findings.worker_cubes = std::move(threads.workers);
             r.findings.thread_problems = std::move(threads.problems);
         }},
        // What worker threads took part in (messages, collectives), which
        // pairing handled outside the replay, on the threads' cubes
        // (wait_states/worker_mpi_wait_states.hpp).
        // The delay metrics the delay analysis found for worker threads go
        // to their cubes here, which are made after it.
        {{"worker mpi", {Product::ThreadMetrics}, {Product::DelayCostMetrics}, {Product::WorkerMpiMetrics}}, always,
         [](Run& r) {
             for (const ThreadCharge& charge : r.thread_charges)
                 r.findings.worker_cubes[charge.thread - 1].add(charge.metric, charge.cnode, charge.value);
             const std::vector<WaitInstance> waits = book_worker_mpi(r.trace, r.cube, r.findings.worker_cubes);
             if (std::optional<std::string> line = disagreement_warning(r.trace))
                 r.findings.thread_problems.push_back(std::move(*line));
             LongestWaits longest;
             for (const WaitInstance& wait : r.findings.longest_waits) longest.offer(wait);
             for (const WaitInstance& wait : waits) longest.offer(wait);
             r.findings.longest_waits = longest.kept();
         }},
        // Every OpenMP thread is a location of the path: it writes the
        // worker threads' cubes too.
        {{"critical path",
          {Product::ForwardFacts, Product::ExclusiveTimes, Product::ThreadMetrics},
          {Product::RmaEpochWaits},
          {Product::CriticalPathMetrics}},
         [](const AnalysisOptions& options, const GraphOptions&) { return options.critical_path; },
         [](Run& r) {
             CriticalPathAnalysis critical_path(r.cube, r.engine.message_slots(), r.exclusive, r.findings.worker_cubes,
                                                r.rma_waits.waits);
             run_rounds(r, "critical path", {&critical_path});
             r.findings.critical_path = critical_path.counts();
             for (const auto& [from, to] : critical_path.segments()) r.critical_segments.push_back({from, to});
         }},
        {{"delay costs", {Product::ForwardFacts}, {Product::RmaEpochWaits}, {Product::DelayCostMetrics}},
         [](const AnalysisOptions& options, const GraphOptions&) { return options.root_cause; }, delay_costs},
        // A forward pass of its own, since its payloads depend on the pass
        // (the longest path so far) and travel one by one; then its longest
        // path, marked in rounds. The critical path's imbalance, where it
        // ran, helps to pick the suggestions.
        {{"activity graph", {Product::ForwardFacts}, {Product::CriticalPathMetrics}, {Product::GraphFindings}},
         [](const AnalysisOptions&, const GraphOptions& graph) { return graph.enabled; },
         [](Run& r) {
             std::vector<double> imbalance(r.cube.call_paths(), 0.0);
             for (CallPathId c = 0; c < imbalance.size(); ++c)
                 imbalance[c] = r.cube.get(Metric::CriticalPathImbalance, c);
             ActivityGraph graph(*r.facts, r.graph, r.findings.graph, std::move(imbalance));
             const std::array<replay::ReplayObserver*, 1> observers{&graph};
             const auto start = std::chrono::steady_clock::now();
             r.engine.run("activity graph", observers);
             r.engine.run_rounds("activity graph's path",
                                 [&](replay::Exchange& exchange) { graph.follow_path(exchange); });
             r.findings.graph_seconds = seconds_since(start);
         }},
        {{"timeline windows", {Product::ForwardFacts}, {Product::CriticalPathMetrics}, {Product::TimelineLanes}},
         [](const AnalysisOptions& options, const GraphOptions&) { return options.timeline_waits > 0; },
         timeline_lanes},
    };
    return table;
}

// The stages that run under the options, in their order.
std::vector<const Stage*> enabled_stages(const AnalysisOptions& options, const GraphOptions& graph) {
    std::vector<const Stage*> enabled;
    std::vector<StageDeclaration> declared;
    for (const Stage& stage : stages())
        if (stage.enabled(options, graph)) {
            enabled.push_back(&stage);
            declared.push_back(stage.declared);
        }
    std::vector<const Stage*> ordered;
    for (const std::size_t s : stage_order(declared)) ordered.push_back(enabled[s]);
    return ordered;
}

}  // namespace

std::vector<std::string_view> analysis_order(const AnalysisOptions& options, const GraphOptions& graph) {
    std::vector<std::string_view> names;
    for (const Stage* stage : enabled_stages(options, graph)) names.push_back(stage->declared.name);
    return names;
}

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
                  const GraphOptions& graph, AnalysisFindings& findings) {
    LocalCube cube(trace.call_tree.size());
    findings.backward_seconds = 0;  // each backward analysis adds its pass
    Run run{trace, engine, options, graph, cube, findings, {}, std::nullopt, {}, {}, {}, {}, {}};
    for (const Stage* stage : enabled_stages(options, graph)) stage->run(run);
    return cube;
}

}  // namespace hindsight::analyses
