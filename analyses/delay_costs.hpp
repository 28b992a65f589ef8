// Root causes of wait states: the delay analysis of Böhme et al. (TOPC
// 2016, §4-5), in a backward replay.
//
// Walking backward, each wait state's costs travel to the rank that caused
// it: its own length (short-term) and the waiting it caused later on through
// propagation (long-term, γ_long, accumulated while the pass covered the
// later wait states). There they are divided (cost_shares.hpp) among the
// call paths where that rank did more than the waiting rank in their
// synchronization interval (sync_intervals.hpp) — the delays — and among the
// delaying rank's own wait states in the interval, whose γ_long grows and
// moves on when the pass reaches them. Every tick of waiting thus ends up as
// delay cost on some call path of some rank.
//
// Where the data goes:
//  - Late Sender: the receiver's profile and costs travel to the sender with
//    the backward message; the sender replies with the part of the wait that
//    its own waiting explains (the wait's indirect part).
//  - Late Receiver: the receiver (the delayer) sends its profile; the sender
//    computes the shares and replies them.
//  - Collectives: the delayer (the last to enter; the root of 1-to-n
//    operations) broadcasts its profile, each waiting rank computes its
//    shares, one reduction sums them onto the delayer.
//
// Metrics: delay_<pattern> (short-term) and delay_<pattern>_longterm on the
// delaying rank's call paths; on the waiting rank's call path, for
// point-to-point waits, mpi_wait_indirect_* / mpi_wait_direct_* (the part
// explained by the delayer's waiting, and the rest) and
// mpi_wait_propagating_* / mpi_wait_terminal_* (whole wait states that did,
// or did not, cause waiting later on).
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
#include "analyses/synchronization_points.hpp"
#include "replay/observer.hpp"

namespace hindsight {

class DelayCostAnalysis final : public replay::ReplayObserver {
public:
    DelayCostAnalysis(LocalCube& cube, const SynchronizationPoints& points)
        : cube_(&cube), points_(&points) {}

    void begin_pass(const replay::LocalTrace& trace, replay::Direction direction) override;
    replay::RegionEvents region_events() const override { return replay::RegionEvents::None; }
    void pack(const replay::EventView& view, replay::PayloadWriter& out) override;
    void unpack(const replay::EventView& view, replay::PayloadReader& in) override;
    // Data travels exactly where a reply is wanted: at wait states.
    bool carries_data(const replay::EventView& view) const override;
    bool expects_reply(const replay::EventView& view) const override;
    // A Late Sender's receiver only classifies its wait with the answer,
    // which nothing else in the pass reads: it may come at the end.
    bool defers_reply(const replay::EventView& view) const override;
    void pack_reply(const replay::EventView& view, replay::PayloadWriter& out) override;
    void unpack_reply(const replay::EventView& view, replay::PayloadReader& in) override;
    replay::CollectiveTask on_collective(const replay::EventView& view,
                                         replay::CollectiveExchange& exchange) override;
    // Collectives exchange only where a member waited.
    bool exchanges_at(const replay::EventView& view) const override;

private:
    // What a point-to-point payload or reply of this analysis carries.
    enum class Kind : std::uint8_t { None, LateSender, LateReceiver };

    // The delay metrics of one wait-state pattern.
    struct DelayMetrics {
        Metric short_term;
        Metric long_term;
    };

    const WaitState* own_wait(const replay::EventView& view, WaitPattern pattern) const;
    Ticks late_receiver_caused(const replay::EventView& view) const;
    double long_cost(replay::EventIndex index) const;
    IntervalProfile interval(const replay::EventView& view);
    // The delaying rank's side: records the shares of a wait's costs, and
    // the costs no delay explains on the synchronization point's call.
    void charge(const replay::EventView& view, const IntervalProfile& delayer,
                const CostShares& shares, DelayMetrics metrics, double unexplained_short,
                double unexplained_long);
    // The waiting rank's side: classifies its point-to-point wait state.
    void classify(const replay::EventView& view, WaitPattern pattern, Ticks waiting,
                  double indirect);
    replay::CollectiveTask collective(const replay::EventView& view, replay::CollectiveExchange& exchange,
                    DelayMetrics metrics);

    LocalCube* cube_;
    const SynchronizationPoints* points_;
    const replay::LocalTrace* trace_ = nullptr;
    SyncIntervals intervals_;
    IntervalScanner scanner_;
    std::unordered_map<replay::EventIndex, double> long_costs_;  // γ_long by wait-state event

    // Between a payload and its reply on the same event.
    Kind reply_kind_ = Kind::None;
    CostShares reply_shares_;            // the sender's answer
    double reply_short_ = 0;             // the costs the answer divides
    double reply_long_ = 0;
    IntervalProfile held_interval_;      // the receiver's interval while it awaits the answer
};

}  // namespace hindsight
