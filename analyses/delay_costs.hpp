// Root causes of wait states: the delay analysis of Böhme et al. (TOPC
// 2016, §4-5), in a backward replay, with Scalasca's synchronization points
// (sync_point_list.hpp) and intervals (sync_intervals.hpp).
//
// Walking backward, each wait state's costs travel to the rank that caused
// it: its own length (short-term) and the waiting it caused later on through
// propagation (long-term, accumulated by pattern while the pass covered the
// later wait states). There they are divided (cost_shares.hpp) among the
// call paths where that rank did more than the waiting rank in their
// synchronization interval (the delays) and among the delaying rank's own
// wait states in the interval, whose long-term costs grow and move on when
// the pass reaches them. Every tick of waiting thus ends up as delay cost on
// some call path of some rank, under the pattern of the wait it explains.
//
// Where the data goes:
//  - Late Sender: the receiver's profile and costs travel to the sender with
//    the backward message; the sender replies with the part of the wait that
//    its own waiting explains (the wait's indirect part).
//  - Late Receiver: the receiver (the delayer) sends its profile; the sender
//    computes the excess and the scales and replies them.
//  - Collectives: the delayer (the last to enter; the root of 1-to-n
//    operations) broadcasts its interval in pieces, one from each point at
//    which its interval with some member begins; each waiting rank takes
//    the pieces of its own interval, computes its shares, and one reduction
//    sums them onto the delayer.
//
// Metrics: delay_<pattern> (short-term) and delay_<pattern>_longterm on the
// delaying rank's call paths; on the waiting rank's call path, for
// point-to-point waits, mpi_wait_indirect_* / mpi_wait_direct_* (the part
// explained by the delayer's waiting, and the rest) and
// mpi_wait_propagating_* / mpi_wait_terminal_* (the part of the wait that
// made others wait directly, and the rest).
//
// Needs every wait state of this rank known when the pass begins, the
// senders' Late Receiver waits included (the receivers' notes at the end of
// the forward pass): the intervals look back at earlier wait states.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analyses/cost_shares.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/sync_intervals.hpp"
#include "analyses/sync_point_list.hpp"
#include "analyses/synchronization_points.hpp"
#include "replay/observer.hpp"

namespace hindsight::analyses {

class DelayCostAnalysis final : public replay::ReplayObserver {
public:
    DelayCostAnalysis(LocalCube& cube, const SynchronizationPoints& points)
        : cube_(&cube), points_(&points) {}

    void begin_pass(const trace::LocalTrace& trace, replay::Direction direction) override;
    replay::Participation participation() const override {
        return {.payloads = replay::Payloads::FromPass, .replies = true, .collectives = true};
    }
    void pack(const trace::EventView& view, replay::PayloadWriter& out) override;
    void unpack(const trace::EventView& view, replay::PayloadReader& in) override;
    // Data travels exactly where a reply is wanted: at wait states.
    bool carries_data(const trace::EventView& view) const override;
    // A Late Sender's receiver only classifies its wait with the answer,
    // which nothing else in the pass reads: it may come at the end.
    replay::ReplyNeed reply_need(const trace::EventView& view) const override;
    void pack_reply(const trace::EventView& view, replay::PayloadWriter& out) override;
    void unpack_reply(const trace::EventView& view, replay::PayloadReader& in) override;
    replay::CollectiveTask on_collective(const trace::EventView& view,
                                         replay::CollectiveChannel& exchange) override;
    // Collectives exchange only where a member waited.
    bool exchanges_at(const trace::EventView& view) const override;

private:
    // What a point-to-point payload or reply of this analysis carries.
    enum class Kind : std::uint8_t { None, LateSender, LateReceiver };

    const WaitState* own_wait(const trace::EventView& view, WaitPattern pattern) const;
    bool caused_late_receiver(const trace::EventView& view) const;
    // World ranks of a communicator's members, in communicator rank order.
    const std::vector<int>& members(CommId comm);
    int peer_world_rank(const trace::EventView& view);
    PatternCosts long_costs(trace::EventIndex index) const;
    double propagating(trace::EventIndex index) const;
    // The interval that ends at synchronization point `view` and begins at
    // the previous one involving world rank `peer`.
    IntervalProfile interval_with(const trace::EventView& view, int peer);
    // The delaying rank's side: records the costs of a wait state of
    // `pattern` that the scales divide over the delayer's interval, and
    // passes the share of its waits on to them. Point-to-point delays also
    // mark those waits as propagating.
    void charge(CostPattern pattern, const IntervalProfile& delayer, const std::vector<double>& excess,
                const CostScales& scales, bool point_to_point);
    // Costs no delay in the interval explains stay with the synchronization
    // point's own call on the delayer.
    void charge_unexplained(const trace::EventView& view, CostPattern pattern, double short_cost,
                            const PatternCosts& long_cost);
    // The waiting rank's side: classifies its point-to-point wait state.
    void classify(const trace::EventView& view, WaitPattern pattern, Ticks waiting, double indirect);
    // One piece of the delayer's interval at a collective, from a point
    // where its interval with some member begins to the next such point.
    struct Piece {
        OperationId begins_at = 0;  // 0: the start of the trace
        CallPathId first_call = kNoCallPath;
        double pruned = 0;
        RawInterval raw;
    };
    std::vector<double> delayer_pieces(std::size_t here, const std::vector<int>& members, std::vector<Piece>& pieces);
    replay::CollectiveTask collective(const trace::EventView& view, replay::CollectiveChannel& exchange,
                                      CostPattern pattern);

    LocalCube* cube_;
    const SynchronizationPoints* points_;
    const trace::LocalTrace* trace_ = nullptr;
    SyncPointList sync_points_;
    IntervalScanner scanner_;
    std::vector<std::vector<int>> members_;  // by communicator, filled when asked
    std::unordered_map<trace::EventIndex, PatternCosts> long_costs_;  // γ_long by wait-state event
    std::unordered_map<trace::EventIndex, double> propagating_;       // the part of a wait that propagated

    // Between a payload and its reply on the same event.
    Kind reply_kind_ = Kind::None;
    double reply_indirect_ = 0;          // a Late Sender's answer
    std::vector<double> reply_;          // a Late Receiver's answer
    // The receiver's intervals at the Late Receiver messages whose answers
    // are outstanding (several may be: observer.hpp), by Recv event.
    std::unordered_map<trace::EventIndex, IntervalProfile> held_intervals_;
};

}  // namespace hindsight::analyses
