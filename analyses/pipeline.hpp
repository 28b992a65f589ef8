// The analysis of one rank's trace into one LocalCube: the forward pass
// (profile, message statistics, wait states, collective call statistics,
// the Late Receiver notes at its end), then the analyses that read its
// facts: the profile per communicator, the round analyses (critical path,
// delay costs), the activity graph (a forward pass of its own, then its
// path in rounds) and the lanes of the timeline's windows. pipeline.cpp declares each analysis with what it reads
// and produces; the order follows from that (stage_order.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/communication/communication_matrix.hpp"
#include "analyses/critical_path/critical_path_hand_offs.hpp"
#include "analyses/communication/communicator_profile.hpp"
#include "analyses/graph/activity_graph.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/forward_facts.hpp"
#include "analyses/timeline/timeline_windows.hpp"
#include "analyses/wait_states/worker_mpi_wait_states.hpp"
#include "replay/engine.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

struct AnalysisOptions {
    bool critical_path = true;
    bool root_cause = true;
    // How many of each pattern's longest waits get a timeline window (at
    // most LongestWaits::kPerPattern; 0: no timeline).
    std::size_t timeline_waits = 0;
};

// What the analyzer may report besides the cube; per rank, to be summed
// over ranks by the caller.
struct AnalysisFindings {
    ClockViolations clock_violations;
    // The rank's longest wait states of each pattern (LongestWaits::kept()),
    // on any of its threads.
    std::vector<WaitInstance> longest_waits;
    // The rank's share of the profile per communicator.
    CommunicatorProfile communicators;
    // The rank's row of the communication matrix.
    std::vector<TrafficCell> traffic;
    // The activity graph's longest path and what-ifs, alike on every rank.
    GraphFindings graph;
    // This rank's time in each pass, for benchmarks (backward: the critical
    // path's and the delay costs' together).
    double forward_seconds = 0;
    double backward_seconds = 0;
    double graph_seconds = 0;
    // The rounds of bulk exchanges the delay analysis took (alike on every
    // rank): they grow with the longest chain of propagating wait states,
    // not with the number of messages.
    std::uint64_t delay_cost_rounds = 0;
    // This rank's wait states whose delay costs went on before all their
    // shares came, to end a stall (DelayCostAnalysis::passed_early()).
    std::uint64_t delay_costs_passed_early = 0;
    // The critical path's hand-off nodes (all ranks) and doubling levels.
    CriticalPathCounts critical_path;
    // The timeline's windows (alike on every rank) and this rank's lane of
    // each, in their order, as bytes (timeline/lane.hpp) to send to rank 0.
    std::vector<TimelineWindow> timeline_windows;
    std::vector<std::byte> timeline_lanes;
    // The cubes of the rank's OpenMP worker threads (empty for a rank of
    // one thread) and what their analysis left out.
    std::vector<LocalCube> worker_cubes;
    std::vector<std::string> thread_problems;
};

// The analyses that run under these options, in the order they run; throws
// std::logic_error where their declarations contradict each other.
std::vector<std::string_view> analysis_order(const AnalysisOptions& options, const GraphOptions& graph);

// Runs every pass on this rank; all ranks must call it together (the engine
// replays their communication).
LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options);
// The same, also filling `findings`.
LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options, AnalysisFindings& findings);
// The same, with the activity graph's pass where graph.enabled.
LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine, const AnalysisOptions& options,
                  const GraphOptions& graph, AnalysisFindings& findings);

}  // namespace hindsight::analyses
