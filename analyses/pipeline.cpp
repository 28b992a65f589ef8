#include "analyses/pipeline.hpp"

#include <array>
#include <vector>

#include "analyses/collective_statistics.hpp"
#include "analyses/collective_wait_states.hpp"
#include "analyses/critical_path.hpp"
#include "analyses/delay_costs.hpp"
#include "analyses/message_statistics.hpp"
#include "analyses/point_to_point_wait_states.hpp"
#include "analyses/profile.hpp"

namespace hindsight::analyses {

LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options) {
    AnalysisFindings findings;
    return analyze(trace, engine, options, findings);
}

LocalCube analyze(const trace::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options, AnalysisFindings& findings) {
    LocalCube cube(trace.call_tree.size());
    SynchronizationPoints points;
    points.wait_states.keep(options.critical_path || options.root_cause);

    // Forward pass: the profile and every wait state whose waiting side can
    // see it as the replay moves forward.
    {
        ProfileAnalysis profile(cube);
        MessageStatistics statistics(cube);
        PointToPointWaitStates point_to_point(cube, points);
        CollectiveWaitStates collectives(cube, points);
        CollectiveStatistics collective_calls(cube);
        const std::array<replay::ReplayObserver*, 5> forward{&profile, &statistics, &point_to_point,
                                                             &collectives, &collective_calls};
        engine.run(replay::Direction::Forward, forward);
    }

    // The backward analyses share one pass: their messages and collective
    // exchanges travel together.
    if (options.critical_path || options.root_cause) {
        CriticalPathAnalysis critical_path(cube, points);
        DelayCostAnalysis delay_costs(cube, points);
        std::vector<replay::ReplayObserver*> backward;
        if (options.critical_path) backward.push_back(&critical_path);
        if (options.root_cause) backward.push_back(&delay_costs);
        engine.run(replay::Direction::Backward, backward);
    }

    findings.clock_violations = points.clock_violations;
    findings.longest_waits = points.longest_waits.kept();
    return cube;
}

}  // namespace hindsight::analyses
