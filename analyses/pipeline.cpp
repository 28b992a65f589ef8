#include "analyses/pipeline.hpp"

#include <array>
#include <vector>

#include "analyses/collective_wait_states.hpp"
#include "analyses/critical_path.hpp"
#include "analyses/delay_costs.hpp"
#include "analyses/late_receiver_delivery.hpp"
#include "analyses/message_statistics.hpp"
#include "analyses/point_to_point_wait_states.hpp"
#include "analyses/profile.hpp"

namespace hindsight {

LocalCube analyze(const replay::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options) {
    AnalysisFindings findings;
    return analyze(trace, engine, options, findings);
}

LocalCube analyze(const replay::LocalTrace& trace, replay::ReplayEngine& engine,
                  const AnalysisOptions& options, AnalysisFindings& findings) {
    LocalCube cube(trace.call_tree.size());
    SynchronizationPoints points;

    // Forward pass: the profile and every wait state whose waiting side can
    // see it as the replay moves forward.
    {
        ProfileAnalysis profile(cube);
        MessageStatistics statistics(cube);
        PointToPointWaitStates point_to_point(cube, points);
        CollectiveWaitStates collectives(cube, points);
        const std::array<replay::ReplayObserver*, 4> forward{&profile, &statistics,
                                                             &point_to_point, &collectives};
        engine.run(replay::Direction::Forward, forward);
    }

    // Backward pass. The Late Receiver delivery comes first: it completes
    // the senders' synchronization points before the analyses below read
    // them at the same events.
    {
        LateReceiverDelivery late_receivers(cube, points);
        std::vector<replay::ReplayObserver*> backward{&late_receivers};

        // ---- backward analyses -------------------------------------------
        CriticalPathAnalysis critical_path(cube, points);
        if (options.critical_path) backward.push_back(&critical_path);
        // -------------------------------------------------------------------

        engine.run(replay::Direction::Backward, backward);
    }

    // The delay analysis looks back from each wait state at the earlier wait
    // states of its interval, senders' Late Receiver waits included, which
    // the pass above delivered: so it takes a backward pass of its own.
    if (options.root_cause) {
        DelayCostAnalysis delay_costs(cube, points);
        const std::array<replay::ReplayObserver*, 1> backward{&delay_costs};
        engine.run(replay::Direction::Backward, backward);
    }

    findings.clock_violations = points.clock_violations;
    findings.synchronization_points = points.wait_states.size();
    return cube;
}

}  // namespace hindsight
