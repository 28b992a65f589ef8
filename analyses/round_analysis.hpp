// The second way an analysis runs, beside the forward pass's observers
// (replay/observer.hpp): in rounds of bulk exchanges among all ranks
// (replay/exchange.hpp), after the pass, from what the pass found. Such an
// analysis computes from the whole trace at once what per-event hand-overs
// would follow one message at a time: a chain of wait states through all
// ranks (the delay costs), the critical path (pointer doubling over the
// ranks' waits). It walks no events in step with other ranks, so it needs
// no replay of the communication.
#pragma once

#include "analyses/forward_facts.hpp"
#include "replay/exchange.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

class RoundAnalysis {
public:
    virtual ~RoundAnalysis() = default;
    // Runs the analysis on this rank's `trace` with what the forward pass
    // found (`facts`, read only); collective over all ranks of `exchange`,
    // which all run the same round analyses in the same order
    // (ReplayEngine::run_rounds).
    virtual void run(const trace::LocalTrace& trace, const ForwardFacts& facts,
                     replay::Exchange& exchange) = 0;
};

}  // namespace hindsight::analyses
