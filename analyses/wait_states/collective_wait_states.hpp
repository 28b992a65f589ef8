// Wait states of collective operations (and of MPI_Init / MPI_Finalize,
// which synchronize all ranks), with Scalasca's semantics. Times are the
// entry of the MPI call and the end of the collective operation; each wait
// is clamped to the time the rank actually spent in the call. The shape of
// the operation decides the pattern, and the pattern the metrics
// (patterns.hpp); here is how each shape is detected:
//  - Barrier: Wait at Barrier = until the last rank entered; Barrier
//    Completion = after the first rank left.
//  - n-to-n (allreduce, allgather[v], alltoall, reduce_scatter[_block]):
//    Wait at N x N and N x N Completion alike. If some rank left before the
//    last one entered, only the ranks that exchanged data with the last
//    sender take part.
//  - 1-to-n (bcast, scatter[v]): Late Broadcast = a receiving rank entered
//    before the root. On an intercommunicator, whose traces name no root,
//    the root is the member that sent data (to the other group).
//  - n-to-1 (reduce, gather[v]): Early Reduce = the root entered before the
//    last sending rank. On an intercommunicator the root is the member that
//    received data without sending any.
//  - scan, exscan: Early Scan = a rank entered before the last of the lower
//    (or equal) ranks that contribute data.
//  - n-to-n over the sources (alltoallv/w, and the neighborhood collectives
//    Hindsight's collector records as alltoallv): Wait at N x N = a rank
//    entered before the last of the members it received data from, where
//    the trace lists them; it is tied to that member, and that member,
//    if it did not wait itself, to the whole communicator.
//  - MPI_Init: Initialization Completion (after the first rank left);
//    MPI_Finalize: Wait at Finalize (until the last rank entered).
// Operations on single-rank communicators, MPI_Alltoallv/w in traces that do
// not say who exchanged with whom (Score-P's) and operations that move no
// data do not synchronize.
// A rank that left the operation before the rank it waited for entered it
// counts as a clock-condition violation (ClockViolations), but not at
// MPI_Init and MPI_Finalize: MPI does not make a rank stay in them until
// the last one arrived, so there an early leave says nothing about clocks.
#pragma once

#include "analyses/local_cube.hpp"
#include "analyses/forward_facts.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

class CollectiveWaitStates final : public replay::ReplayObserver {
public:
    CollectiveWaitStates(LocalCube& cube, ForwardFactsBuilder& facts)
        : cube_(&cube), facts_(&facts) {}

    void begin_pass(const trace::LocalTrace& trace) override;
    replay::Participation participation() const override { return {.collectives = true}; }
    replay::CollectiveTask on_collective(const trace::EventView& view,
                                         replay::CollectiveChannel& exchange) override;

private:
    struct Call;  // one rank's view of the operation

    replay::CollectiveTask find_root(const Call& call, replay::CollectiveChannel& ex, bool is_root, int& root);
    replay::CollectiveTask all_synchronizing(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask window_synchronizing(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask all_to_all(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask one_to_all(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask all_to_one(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask scan(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask from_sources(const Call& call, replay::CollectiveChannel& ex);
    replay::CollectiveTask record_group(const Call& call, replay::CollectiveChannel& ex, bool member, bool keeps);
    // Records this rank's wait for the entry of communicator rank `cause`
    // and its completion time after the first synchronizing rank's end
    // (`first_end`), and claims them for the metrics of the operation's
    // pattern (patterns.hpp).
    void settle(const Call& call, int cause, Ticks awaited_enter, Ticks first_end);
    void count_fence_partners(CallPathId cnode, int others, double origins);

    LocalCube* cube_;
    ForwardFactsBuilder* facts_;
};

}  // namespace hindsight::analyses
