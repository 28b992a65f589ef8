// How a rank learns which of its calls ended other ranks' waits in
// one-sided epochs (rma_waits.hpp): the waiting ranks name them, in one
// bulk exchange after the epochs' analyses have found the waits.
#pragma once

#include "analyses/rma_waits.hpp"
#include "analyses/round_analysis.hpp"

namespace hindsight::analyses {

class RmaEndingCalls final : public RoundAnalysis {
public:
    // `waits` holds this rank's waits (RmaWait), which run() reduces to
    // the longest of each call (a call that waited for several partners
    // waited until the last), without those that tie the rank to no other,
    // and sorts by call; run() fills in the calls of this rank that ended
    // the partners' waits (RmaDelay).
    explicit RmaEndingCalls(RmaWaits& waits) : waits_(&waits) {}
    void run(const trace::LocalTrace& trace, const ForwardFacts& facts, replay::Exchange& exchange) override;

private:
    RmaWaits* waits_;
};

}  // namespace hindsight::analyses
