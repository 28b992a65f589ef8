// Root causes of wait states: the delay analysis of Böhme et al. (TOPC
// 2016, §4-5), with Scalasca's synchronization points (sync_point_list.hpp)
// and intervals (sync_intervals.hpp), computed backward in time in rounds of
// bulk exchanges (replay/wavefront_rounds.hpp) after the forward pass (a
// RoundAnalysis, round_analysis.hpp).
//
// Each wait state's costs travel to the rank that caused it: its own length
// (short-term) and the waiting it caused later on through propagation
// (long-term, accumulated by pattern from the later wait states it passed
// on). There they are divided (cost_shares.hpp) among the call paths where
// that rank did more than the waiting rank in their synchronization interval
// (the delays) and among the delaying rank's own wait states in the
// interval, whose long-term costs grow and move on to their own causes.
// Every tick of waiting thus ends up as delay cost on some call path of some
// rank, under the pattern of the wait it explains.
//
// A wait state can pass its costs on once it has received all the shares it
// will get: those of the later wait states whose delayer interval holds it.
// Each rank knows which those are (the intervals are its own), so it counts
// them and passes a wait on as soon as its count is down to zero. The
// rounds therefore follow the chains of propagation, not the messages: a
// wait that propagated nothing further goes out in the first round that it
// can, together with all such waits of the rank. Ranks whose traces order
// their synchronizations differently can hold each other's waits back in a
// cycle; then the latest wait held back passes on with the shares it has,
// and the analyzer warns that long-term costs may fall short.
//
// What travels (records keyed by the synchronization point's OperationId,
// cost_records.hpp):
//  1. claims: a Late Sender's receiver, a rank that waited in a one-sided
//     epoch and a collective's waiting members
//     tell the delayer that it has costs coming, so that it can count them;
//     a Late Receiver's receiver (the delayer) sends its interval profile
//     to the waiting sender; a collective's delayer answers each claim
//     with its interval with that member;
//  2. costs: the Late Sender's receiver (or the rank that waited in a
//     one-sided epoch) sends its costs and profile, the sender (the rank
//     whose call ended that wait) divides them and answers the part of the wait that its own
//     waiting explains (the wait's indirect part); the Late Receiver's
//     sender and a collective's waiting members compute the division
//     themselves from the delayer's profile and send the factors.
//
// Metrics: delay_<pattern> (short-term) and delay_<pattern>_longterm on the
// delaying rank's call paths; on the waiting rank's call path, for
// point-to-point waits, mpi_wait_indirect_* / mpi_wait_direct_* (the part
// explained by the delayer's waiting, and the rest) and
// mpi_wait_propagating_* / mpi_wait_terminal_* (the part of the wait that
// made others wait directly, and the rest).
//
// A wait in a one-sided epoch that one partner's call ended (rma_waits.hpp:
// Late Post, Early Wait, Lock Contention) goes like a Late Sender's: the
// waiting rank sends its costs and profile to the rank of that call, which
// divides them over its interval up to the call.
//
// Messages with an OpenMP worker thread on either side (paired outside the
// replay, thread_points.hpp) go like the masters' messages, between the two
// threads that sent and received them, and collective operations such a
// thread made (collective_part_points.hpp) like the masters' collectives,
// between the threads that took the members' parts: the points and
// intervals are those of the threads, and the costs land on the delaying
// thread's call paths.
// The delay metrics of worker threads are handed on (thread_charges()), as
// their cubes are made afterwards.
//
// On a hybrid rank (HybridRank) the master's OpenMP barrier waits count
// as its waiting in these intervals, and a wait of the master outside
// parallel regions carries the workers' idleness from the start, as
// long-term costs of the kind kOmpIdleCosts (cost_kinds.hpp); a wait in
// MPI_Finalize, which has no delay costs of its own, passes on that
// idleness alone. What reaches the barrier waits the OpenMP analysis
// divides over the threads that delayed them (barrier_wait_costs()).
//
// Needs every wait state of this rank known when the pass begins, the
// senders' Late Receiver waits included (the receivers' notes at the end of
// the forward pass): the intervals look back at earlier wait states.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyses/delay/cost_records.hpp"
#include "analyses/delay/cost_shares.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/delay/operation_index.hpp"
#include "analyses/delay/sync_intervals.hpp"
#include "analyses/delay/sync_point_list.hpp"
#include "analyses/forward_facts.hpp"
#include "analyses/round_analysis.hpp"
#include "analyses/polling_calls.hpp"
#include "analyses/thread_collective_waits.hpp"
#include "analyses/thread_message_waits.hpp"
#include "replay/wavefront_rounds.hpp"

namespace hindsight::analyses {

// What a hybrid rank's threads add to its MPI delay analysis (§7.1 of the
// paper): the threads' OpenMP barrier waits, through which MPI costs pass
// to the thread that came last to the barrier, the worker idleness during
// the master's waits outside parallel regions, which travels with those
// waits' costs as long-term idleness costs (kOmpIdleCosts), and where the
// workers' teams began.
struct HybridRank {
    // The threads' OpenMP barrier waits: the master's, and a worker's where
    // it has MPI operations of its own (thread_barrier_waits.hpp).
    std::vector<LocalWait> barrier_waits;
    std::size_t workers = 0;                // threads - 1
    std::vector<bool> in_parallel;          // by call path: inside a parallel region
    std::vector<TimeShift> team_edges;      // the master's team start and end, the region's time
    // The barrier waiting (ticks) that the master's MPI waits inside
    // parallel regions prolonged, by the wait's event: long-term costs of
    // kind kOmpBarrierCosts from the start (openmp/barrier_delay.hpp).
    std::vector<std::pair<trace::EventIndex, double>> barrier_costs;
    // Where the workers' teams began (thread_points.hpp).
    std::vector<TeamStart> team_starts;
};

// A value for the cube of an OpenMP worker thread.
struct ThreadCharge {
    std::uint32_t thread = 0;  // trace.threads.threads index, not 0
    Metric metric = Metric::Time;
    CallPathId cnode = kNoCallPath;
    double value = 0;
};

class DelayCostAnalysis final : public RoundAnalysis {
public:
    explicit DelayCostAnalysis(LocalCube& cube, HybridRank hybrid = {}, RmaWaits rma = {})
        : cube_(&cube), hybrid_(std::move(hybrid)), rma_(std::move(rma)) {}

    void run(const trace::LocalTrace& trace, const ForwardFacts& facts, replay::Exchange& exchange) override;

    // The rounds the last run took (statistics, tests).
    std::uint64_t rounds() const { return rounds_; }
    // This rank's waits that passed their costs on before every share they
    // were due had come (unstick()): their long-term costs may fall short.
    std::uint64_t passed_early() const { return passed_early_; }
    // After run(): the long-term costs each of the master's barrier waits
    // received, by HybridRank::barrier_waits, for the thread that delayed
    // the barrier.
    const std::vector<PatternCosts>& barrier_wait_costs() const { return barrier_wait_costs_; }
    // After run(): the delay metrics of the worker threads, for their cubes.
    const std::vector<ThreadCharge>& thread_charges() const { return thread_charges_; }

private:
    // A wait state of this rank whose costs go to another rank. The
    // delayer divides the costs of a Late Sender and of a one-sided epoch's
    // wait (DelayerDivides), the waiting rank those of the others.
    struct Waiting {
        enum class Kind : std::uint8_t { DelayerDivides, LateReceiver, Collective };
        std::size_t point = 0;  // its synchronization point
        Kind kind = Kind::DelayerDivides;
        // None for a collective wait without delay costs of its own (at
        // MPI_Finalize) that passes on only the idleness of the workers.
        std::optional<CostPattern> pattern = CostPattern::LateSender;
        int delayer = -1;       // world rank
        bool has_input = false; // the delayer's profile, where the division happens here
        bool queued = false;
    };
    // The delayer's profile for a Late Receiver or collective wait.
    struct DelayerInterval {
        double waiting = 0;
        SparseProfile processing;
    };

    const WaitState* own_wait(trace::EventIndex event, WaitPattern pattern) const;
    // The operation of a collective's point (of the store's or measured
    // outside the replay); none for other points.
    std::optional<trace::CollectiveOp> collective_op(std::size_t point) const;
    // A waiting member's point of a collective measured outside the replay.
    void collect_collective_part(std::size_t point, replay::WavefrontRounds& rounds);
    bool caused_late_receiver(trace::EventIndex event) const;
    // The waiting of `pattern` (with delay costs) at the point, or 0.
    Ticks own_waiting(std::size_t point, WaitPattern pattern) const;
    // Adds to the cube of `thread` (the worker's through thread_charges_).
    void book(std::uint32_t thread, Metric metric, CallPathId cnode, double seconds);
    // World ranks of a communicator's members, in communicator rank order.
    const std::vector<int>& members(CommId comm);
    int peer_world_rank(trace::EventIndex event);
    PatternCosts long_costs(std::size_t point) const;
    std::size_t point_of(OperationId operation, const char* what) const;
    // What a record to the partner of the point names it by: the operation,
    // which both share, or for a message paired outside the replay, the
    // partner's side of it (thread_points.hpp).
    OperationId for_partner(std::size_t point) const;
    // The interval that ends at synchronization point `point` and begins at
    // the previous one of its thread involving the point's partner
    // (SyncPointList::partner(), with world rank `peer`); valid until the
    // next interval is taken (IntervalScanner::interval()).
    const IntervalProfile& interval_with(std::size_t point, int peer);
    // Before the rounds: the messages paired outside the replay that
    // synchronized, known to both of their sides.
    std::vector<PairedPoint> exchange_paired_points(replay::Exchange& exchange);

    void prepare(std::span<const PairedPoint> paired);
    void release();
    // Before the first round: this rank's waits and the Late Receiver waits
    // it caused; the claims and profiles of round one.
    void collect_items(replay::WavefrontRounds& rounds);
    void add_waiting(std::size_t point, Waiting::Kind kind, std::optional<CostPattern> pattern, int delayer,
                     bool has_input);
    void receive(int from, replay::PayloadReader& in, replay::WavefrontRounds& rounds);
    // Passes on every wait whose shares are all in, latest first; whether
    // anything is still to come.
    bool advance(replay::WavefrontRounds& rounds);
    void pass_on(const Waiting& wait, replay::WavefrontRounds& rounds);
    // When the rounds stall: the latest wait still held back for shares
    // passes on without them; whether there was one.
    bool unstick(replay::WavefrontRounds& rounds);

    // The delaying rank's side. A delayer interval of this rank with `peer`
    // ending at `point` holds waits that must not pass on before its
    // costs are in: counted when it becomes known, released when settled.
    void expect_costs(std::size_t point, int peer);
    void settle_costs(std::size_t point, int peer);
    // A Late Sender's or one-sided epoch's wait's costs, which this rank
    // divides over its interval with the waiting rank.
    void divide_costs(std::size_t point, int from, replay::PayloadReader& in, replay::WavefrontRounds& rounds);
    void late_receiver_answer(std::size_t point, int from, replay::PayloadReader& in);
    void collective_answer(std::size_t point, int from, replay::PayloadReader& in);
    // How a waiting rank divided its costs over this rank's interval with it.
    void settle_division(std::size_t point, int from, std::optional<CostPattern> pattern,
                         const cost_records::CostDivision& division, bool point_to_point);
    // Records the costs of a wait state of `pattern` that the scales divide
    // over the delayer's interval (ending at `point`, on its thread), and
    // passes the share of its waits on to them. Point-to-point delays also mark those waits as propagating.
    // Without a pattern only long-term costs come (idleness at MPI_Finalize).
    void charge(std::size_t point, std::optional<CostPattern> pattern, const IntervalProfile& delayer,
                const std::vector<double>& excess, const CostScales& scales, bool point_to_point);
    // Costs no delay in the interval explains stay with the synchronization
    // point's own call on the delayer.
    void charge_unexplained(std::size_t point, std::optional<CostPattern> pattern, double short_cost,
                            const PatternCosts& long_cost);
    // The waiting rank's side: classifies its point-to-point wait state.
    void classify(std::size_t point, WaitPattern pattern, Ticks waiting, double indirect);
    void became_ready(std::size_t point);

    LocalCube* cube_;
    HybridRank hybrid_;
    RmaWaits rma_;
    std::vector<PatternCosts> barrier_wait_costs_;
    std::vector<ThreadCharge> thread_charges_;
    const ForwardFacts* facts_ = nullptr;  // during run()
    std::vector<MessageWait> paired_waits_;  // by trace.threads.paired
    std::vector<bool> partner_waited_;       // likewise
    std::vector<CollectivePartWait> collective_waits_;  // by trace.threads.collective_parts
    PollingCalls polling_;                 // how a receive polled for waited
    const trace::LocalTrace* trace_ = nullptr;
    SyncPointList sync_points_;
    IntervalScanner scanner_;
    std::vector<std::vector<int>> members_;  // by communicator, filled when asked
    // γ_long by point, of the points that have some (a dense table would
    // cost kCostKinds doubles per point).
    std::unordered_map<std::size_t, PatternCosts> long_costs_;
    std::vector<double> propagating_;       // the part of a point's wait that propagated
    OperationIndex point_by_operation_;  // finds the point a record names

    std::vector<Waiting> waiting_;             // this rank's waits with costs to pass on
    std::vector<std::uint32_t> waiting_at_;    // index into waiting_ by point, or kNoWaiting
    std::vector<std::uint32_t> shares_due_;    // by point: delayer intervals holding it, not yet settled
    std::unordered_map<std::size_t, DelayerInterval> inputs_;  // by point of a waiting item
    std::vector<std::size_t> ready_;           // points of waits that may pass on now
    bool started_ = false;                     // the claims are in: the counts are complete
    std::uint64_t outstanding_ = 0;            // records this rank still waits for
    std::uint64_t rounds_ = 0;
    std::uint64_t passed_early_ = 0;
};

}  // namespace hindsight::analyses
