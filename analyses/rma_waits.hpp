// The waits of one-sided epochs that one partner ended, as the epochs'
// analyses (wait_states/rma_epoch_wait_states.hpp, rma_lock_wait_states.hpp,
// rma_progress_waits.hpp) hand them to the delay analysis
// (delay/delay_costs.hpp): a Late Post ended when the last target began
// MPI_Win_post, an Early Wait when the last origin began MPI_Win_complete,
// a Lock Contention when the holder of the conflicting lock began
// MPI_Win_unlock, a Wait for Progress when the target entered an MPI call.
// Like a Late Sender, each ties
// the waiting rank to the one rank whose call ended it; what that rank did
// before the call, more than the waiting rank did, is the delay.
//
// Both ranks hold the pair: the waiting rank its wait (RmaWait), the
// ending rank its call (RmaDelay), which its partners name by its event
// (wait_states/rma_ending_calls.hpp tells it).
#pragma once

#include <vector>

#include "common/wait_patterns.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

struct RmaWait {
    trace::EventIndex call = trace::kNoEvent;  // the Enter of the call that waited
    Ticks waiting = 0;
    metrics::CostPattern pattern = metrics::CostPattern::RmaLatePost;
    int ender = -1;                                   // world rank of the call that ended it
    trace::EventIndex ender_call = trace::kNoEvent;   // that call's Enter, on its rank
};

struct RmaDelay {
    trace::EventIndex call = trace::kNoEvent;  // the Enter of the call that ended the waits
    std::vector<int> waiters;                   // world ranks, sorted, each once
};

struct RmaWaits {
    std::vector<RmaWait> waits;    // by call, at most one per call: the longest
    std::vector<RmaDelay> delays;  // by call, one per call
};

}  // namespace hindsight::analyses
