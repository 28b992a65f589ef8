// The critical path (Böhme et al., IPDPS 2012): the longest path through
// the run that contains no wait state, followed backward in time.
//
// The path ends where the last rank entered MPI_Finalize. Walking backward,
// a "token" stays on its rank until an event at which that rank waited; then
// it moves to the rank that caused the wait (the sender of a Late Sender
// message, the receiver of a Late Receiver message, the last rank to enter a
// collective, the root of a 1-to-n operation), at the moment that rank
// caused the wait to end. The rank holding the token accumulates the time of
// each call path it passes, without its waiting time. So the path's length
// is the time from its start to the last entry into MPI_Finalize.
//
// At the beginning of the trace (the first collective on MPI_COMM_WORLD,
// normally the one of MPI_Init) one reduction combines the ranks'
// critical-path and profile times, from which every rank computes its share
// of the indicators:
//   critical_path                 this rank's time on the critical path
//   critical_path_imbalance       ι(c) = max(d_cp(c) − avg(c), 0), spread
//                                 over the ranks in proportion to their
//                                 share of d_cp(c), so that the ranks add up
//                                 to ι(c) and each rank's imbalance is part
//                                 of its own critical-path time
//   critical_path_activities      this rank's time (without waits) in call
//                                 paths that are on the critical path
//   non_critical_path_activities  ... in call paths that are not
//   critical_imbalance_impact     this rank's headroom h (critical-path
//     intra_partition_imbalance   length minus its own time without waits),
//     inter_partition_imbalance   spread over the call paths c in proportion
//                                 to δ(c) = max(d_cp(c) − d(c), 0); "inter"
//                                 where the rank never ran c, "intra" where
//                                 it did
// d_cp(c): all ranks' time in c on the critical path; d(c): this rank's time
// in c without waits, up to its MPI_Finalize; avg(c): d(c) averaged over all
// ranks. Per rank the performance-impact metrics add up to the critical
// path's length.
//
// A trace without a collective on MPI_COMM_WORLD (no MPI_Init and
// MPI_Finalize) has no anchor for the path: the metrics stay empty.
//
// A one-sided epoch's wait (rma_waits.hpp) hands the path to the rank whose
// call ended it, at that call's entry, like a Late Sender's to its sender.
//
// Hybrid traces: every OpenMP thread is a location of its own. Inside a
// parallel region the path moves from a thread that waited at a barrier to
// the thread that arrived there last, and back to the master at the
// region's start (thread_detours.hpp); MPI moves it between the masters,
// and from a master that waited for another rank's worker thread to that
// worker, whence it comes back to its master the same way
// (critical_path_hand_offs.hpp).
// The sums above then run over all threads of all ranks (the average of
// avg(c) too), and every thread has its own headroom and activities.
//
// The token never travels event by event: bulk rounds after the forward
// pass (a RoundAnalysis, round_analysis.hpp) find all hand-offs of the path at once
// (critical_path_hand_offs.hpp, by pointer doubling over the ranks' waits),
// and then each rank walks its own events backward, taking the token where
// the path arrives and accounting for it as the token-passing replay would.
//
// Needs the senders' Late Receiver waits, which the receivers' notes fill in
// at the end of the forward pass (PointToPointWaitStates).
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "analyses/critical_path/critical_path_hand_offs.hpp"
#include "analyses/critical_path/thread_detours.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/forward_facts.hpp"
#include "analyses/rma_waits.hpp"
#include "analyses/round_analysis.hpp"

namespace hindsight::analyses {

class CriticalPathAnalysis final : public RoundAnalysis {
public:
    // `slots` are the engine's (ReplayEngine::message_slots()); `exclusive`
    // is the forward pass's profile, exclusive ticks by call path
    // (ProfileAnalysis::exclusive_ticks()), from which the rank's activity
    // follows without a walk of its own. `workers` are the cubes of the
    // rank's OpenMP worker threads, in thread order (none in an MPI trace).
    // `rma_waits` are the rank's waits in one-sided epochs. All must
    // outlive the analysis.
    CriticalPathAnalysis(LocalCube& cube, const trace::MessageSlots& slots, std::span<const Ticks> exclusive,
                         std::span<LocalCube> workers = {}, std::span<const RmaWait> rma_waits = {})
        : cube_(&cube), workers_(workers), slots_(&slots), exclusive_(exclusive), rma_waits_(rma_waits) {}

    void run(const trace::LocalTrace& trace, const ForwardFacts& facts, replay::Exchange& exchange) override;

    // The hand-off nodes and doubling levels of the last run.
    const CriticalPathCounts& counts() const { return counts_; }
    // Where the path ran on this rank: [from, to] intervals, in time order
    // (for the timeline; tens of bytes per hand-off).
    const std::vector<std::pair<Ticks, Ticks>>& segments() const { return segments_; }

private:
    // Where the token stands. Only the holder accumulates.
    struct Token {
        bool held = false;
        Ticks position = 0;  // time down to which the path is accounted for
        Ticks arrived = 0;   // where the path came to this rank (its latest time here)
    };

    // The path's bounds on this rank and its empty sums.
    void begin(const trace::LocalTrace& trace);
    // The backward walk from the last collective on MPI_COMM_WORLD down to
    // the first, as the token would move through this rank.
    void walk(const CriticalPathHandOffs& path);
    // `after`: the call path the time after the event belongs to.
    void pass_event(const trace::EventView& view, CallPathId after);
    // The events `from` down to `stop` (exclusive), none of which hands the
    // path on or receives it, passed while the walk holds the token.
    void pass_events(trace::EventIndex stop, trace::EventIndex from);
    // The holder, at `position`, passes an event at `time`: the gap after it
    // goes to `after`, and the position moves back to the event.
    void hold_through(CallPathId after, Ticks time, Ticks& position);
    // The rank's time without waits by call path: the profile's exclusive
    // time less the synchronization waits (MPI's, those of one-sided
    // epochs and, on the master of a hybrid trace, its OpenMP barrier
    // waits); each worker's alike.
    void count_activity();
    // At a detour's start, holding the path: the master keeps its barrier
    // after the last arrival, the workers carry the path over their
    // stretches; returns where the master takes it back.
    PathArrival take_detour(const trace::EventView& view, const ThreadDetour& detour);
    void accumulate(CallPathId cnode, Ticks from, Ticks to);
    // At a wait that hands the path on: gives the token away at the end of
    // the wait, `until`, if the walk holds it (the path must pass the wait
    // then).
    void hand_off(const trace::EventView& view, bool on_path, Ticks until);
    void take_token(const PathArrival& arrival);
    void finish(const trace::EventView& view);
    // Where the master carried the path over a team's start (its fork to
    // its entry into the region) or end (its exit to the join): that time
    // is the region's, as in its profile, not the enclosing call path's.
    void move_team_edges();
    void combine(replay::Exchange& exchange);
    // Thread t's (0: the master) critical-path time and activities, and cube.
    std::span<const double> on_path(std::size_t thread) const;
    std::span<const double> activity(std::size_t thread) const;
    LocalCube& cube(std::size_t thread) const;
    std::size_t threads() const { return 1 + workers_.size(); }
    // Imbalance costs of one location, [all, inter-partition] by call path,
    // added to `costs`.
    void add_imbalance_costs(std::span<const double> path_total, std::span<const double> activity,
                             std::vector<double>& costs) const;
    void record(std::size_t thread, std::span<const double> path_total, std::span<const double> activity_total,
                std::span<const double> impact_total, std::span<const double> inter_total, double locations);

    LocalCube* cube_;
    std::span<LocalCube> workers_;
    const ForwardFacts* facts_ = nullptr;  // during run()
    const trace::MessageSlots* slots_;
    std::span<const Ticks> exclusive_;
    std::span<const RmaWait> rma_waits_;
    const trace::LocalTrace* trace_ = nullptr;

    // The CollectiveEnd events of the last and the first collective on
    // MPI_COMM_WORLD: the backward walk starts at the last, finishes at the
    // first.
    trace::EventIndex last_world_collective_ = trace::kNoEvent;
    trace::EventIndex first_world_collective_ = trace::kNoEvent;
    Token token_;
    Ticks before_ = 0;  // the token's position before the current event
    std::uint64_t hand_offs_ = 0;  // the walk's, to check against the path's
    CriticalPathCounts counts_;

    std::vector<std::pair<Ticks, Ticks>> segments_;  // latest first while the walk runs
    std::vector<double> on_path_;  // ticks on the critical path, by call path
    std::vector<double> activity_; // ticks without waits, whole trace, by call path

    // Hybrid traces: the OpenMP teams, the detours of the path between the
    // first and the last collective on MPI_COMM_WORLD, and by worker thread
    // (index 0 unused: the master's are above) its time on the path and
    // activities.
    ThreadTeams teams_;
    ThreadDetours thread_detours_;
    std::vector<ThreadDetour> detours_;
    std::vector<std::vector<double>> worker_on_path_;
    std::vector<std::vector<double>> worker_activity_;
};

}  // namespace hindsight::analyses
