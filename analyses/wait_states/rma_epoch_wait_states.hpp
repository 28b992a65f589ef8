// The wait states of general active target synchronization (MPI_Win_post,
// _start, _complete, _wait), as Scalasca defines them:
//  - Late Post: an origin's access epoch (MPI_Win_start ... MPI_Win_complete)
//    waited for the last of its targets to post its window. The wait is in
//    MPI_Win_complete if the post came while the origin was inside it, else
//    in MPI_Win_start (an implementation whose start blocks), else in the
//    transfer call (MPI_Put, ...) of the epoch that was running then;
//  - Early Wait: a target's MPI_Win_wait waited for the last of its origins
//    to begin MPI_Win_complete;
//  - Late Complete: the part of that wait after the origins' last transfer
//    to this target had been issued: the origins had nothing left to do but
//    close their epoch.
// and the pairwise synchronization counts: each partner an epoch's closing
// call (MPI_Win_complete, MPI_Win_wait) synchronized with, and those of them
// no transfer of the epoch went to or came from.
//
// Each side needs the other's times: a target tells its origins when it
// posted, an origin tells its targets when it began to complete and when it
// issued its last transfer to each. These notes go in one bulk exchange
// after the forward pass; the k-th post a target made for a window and
// origin meets the k-th access epoch of that origin on that window with
// that target, as MPI matches them.
//
// Each wait goes to `waits` too, with the partner's call that ended it,
// for the delay analysis (rma_waits.hpp).
#pragma once

#include "analyses/local_cube.hpp"
#include "analyses/rma_waits.hpp"
#include "analyses/round_analysis.hpp"

namespace hindsight::analyses {

class RmaEpochWaitStates final : public RoundAnalysis {
public:
    RmaEpochWaitStates(LocalCube& cube, RmaWaits& waits) : cube_(&cube), waits_(&waits) {}
    void run(const trace::LocalTrace& trace, const ForwardFacts& facts, replay::Exchange& exchange) override;

private:
    LocalCube* cube_;
    RmaWaits* waits_;
};

}  // namespace hindsight::analyses
