#include "analyses/delay_costs.hpp"

#include <array>
#include <optional>

#include "analyses/event_gaps.hpp"
#include "common/error.hpp"

namespace hindsight {

using replay::CollectiveOp;
using replay::EventIndex;
using replay::EventView;

namespace {

struct CollectiveDelay {
    Metric short_term;
    Metric long_term;
};

// The delay metrics of a collective operation's wait states; none for the
// operations whose waits have no delay metric (scans, MPI_Init,
// MPI_Finalize). Decided by the operation, which all members share, so that
// they all take part in the same exchanges.
std::optional<CollectiveDelay> collective_delay(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::Barrier: return CollectiveDelay{Metric::DelayBarrier, Metric::DelayBarrierLongterm};
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Allreduce:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
        return CollectiveDelay{Metric::DelayN2n, Metric::DelayN2nLongterm};
    case CollectiveOp::Bcast:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
        return CollectiveDelay{Metric::Delay12n, Metric::Delay12nLongterm};
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
    case CollectiveOp::Reduce:
        return CollectiveDelay{Metric::DelayN21, Metric::DelayN21Longterm};
    default: return std::nullopt;
    }
}

void put_profile(replay::PayloadWriter& out, const SparseProfile& profile) {
    out.put_span<CallPathId>(profile.paths);
    out.put_span<double>(profile.values);
}

SparseProfile get_profile(replay::PayloadReader& in) {
    SparseProfile profile;
    profile.paths = in.get_vector<CallPathId>();
    profile.values = in.get_vector<double>();
    if (profile.paths.size() != profile.values.size())
        throw Error("", "delay-cost payload holds a malformed profile");
    return profile;
}

}  // namespace

void DelayCostAnalysis::begin_pass(const replay::LocalTrace& trace, replay::Direction direction) {
    if (direction != replay::Direction::Backward)
        throw Error(trace.anchor_path, "the delay analysis needs a backward replay");
    trace_ = &trace;
    intervals_ = SyncIntervals(trace);
    scanner_ = IntervalScanner(trace.call_tree.size());
    long_costs_.clear();
}

const WaitState* DelayCostAnalysis::own_wait(const EventView& view, WaitPattern pattern) const {
    const WaitState* wait = points_->wait_states.find(view.index());
    return wait && wait->pattern == pattern && has_delay_costs(*wait) ? wait : nullptr;
}

Ticks DelayCostAnalysis::late_receiver_caused(const EventView& view) const {
    const auto it = points_->late_receivers_caused.find(view.index());
    return it == points_->late_receivers_caused.end() ? 0 : it->second;
}

double DelayCostAnalysis::long_cost(EventIndex index) const {
    const auto it = long_costs_.find(index);
    return it == long_costs_.end() ? 0.0 : it->second;
}

IntervalProfile DelayCostAnalysis::interval(const EventView& view) {
    return scanner_.scan(*trace_, points_->wait_states, intervals_.range(view));
}

void DelayCostAnalysis::charge(const EventView& view, const IntervalProfile& delayer,
                               const CostShares& shares, DelayMetrics metrics,
                               double unexplained_short, double unexplained_long) {
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    if (shares.explained) {
        for (std::size_t i = 0; i < delayer.processing.paths.size(); ++i) {
            const CallPathId cnode = delayer.processing.paths[i];
            cube_->add(metrics.short_term, cnode, seconds(shares.short_term[i]));
            cube_->add(metrics.long_term, cnode, seconds(shares.long_term[i]));
        }
        for (const auto& [index, waiting] : delayer.waits)
            long_costs_[index] += shares.per_waiting_tick * waiting;
    }
    // Costs no delay in the interval explains stay with the synchronization.
    if (unexplained_short > 0) cube_->add(metrics.short_term, view.cnode(), seconds(unexplained_short));
    if (unexplained_long > 0) cube_->add(metrics.long_term, view.cnode(), seconds(unexplained_long));
}

void DelayCostAnalysis::classify(const EventView& view, WaitPattern pattern, Ticks waiting,
                                 double indirect) {
    const bool late_sender = pattern == WaitPattern::LateSender;
    const double total = ticks_to_seconds(*trace_, static_cast<double>(waiting));
    const double indirect_part = ticks_to_seconds(*trace_, indirect);
    const CallPathId cnode = view.cnode();
    cube_->add(late_sender ? Metric::MpiWaitIndirectLatesender : Metric::MpiWaitIndirectLatereceiver,
               cnode, indirect_part);
    cube_->add(late_sender ? Metric::MpiWaitDirectLatesender : Metric::MpiWaitDirectLatereceiver,
               cnode, total - indirect_part);
    const bool propagating = long_cost(view.index()) > 0;
    const Metric kind = late_sender
                            ? (propagating ? Metric::MpiWaitPropagatingLs : Metric::MpiWaitTerminalLs)
                            : (propagating ? Metric::MpiWaitPropagatingLr : Metric::MpiWaitTerminalLr);
    cube_->add(kind, cnode, total);
}

// Backward, the receiver packs. A Late Sender receiver sends its costs and
// profile to the sender; a receiver that kept its sender waiting (Late
// Receiver) sends its profile for the sender to compute the shares.
void DelayCostAnalysis::pack(const EventView& view, replay::PayloadWriter& out) {
    if (view.kind() != replay::EventKind::Recv) return;
    reply_kind_ = Kind::None;
    if (const WaitState* wait = own_wait(view, WaitPattern::LateSender)) {
        const IntervalProfile mine = interval(view);
        out.put(Kind::LateSender);
        out.put<double>(static_cast<double>(wait->waiting));
        out.put<double>(long_cost(view.index()));
        put_profile(out, mine.processing);
    } else if (late_receiver_caused(view) > 0) {
        held_interval_ = interval(view);
        out.put(Kind::LateReceiver);
        out.put<double>(held_interval_.waiting);
        put_profile(out, held_interval_.processing);
    }
    // Otherwise nothing: the sender gets an empty payload part.
}

void DelayCostAnalysis::unpack(const EventView& view, replay::PayloadReader& in) {
    if (view.kind() != replay::EventKind::Send) return;
    reply_kind_ = Kind::None;
    if (in.empty()) return;
    switch (in.get<Kind>()) {
    case Kind::None: break;
    case Kind::LateSender: {
        const double short_cost = in.get<double>();
        const double long_cost_in = in.get<double>();
        const SparseProfile waiter = get_profile(in);
        const IntervalProfile mine = interval(view);
        const CostShares shares =
            share_costs(mine.processing, mine.waiting, waiter, short_cost, long_cost_in);
        charge(view, mine, shares, {Metric::DelayLateSender, Metric::DelayLateSenderLongterm},
               shares.explained ? 0.0 : short_cost, shares.explained ? 0.0 : long_cost_in);
        reply_kind_ = Kind::LateSender;
        reply_shares_ = shares;
        break;
    }
    case Kind::LateReceiver: {
        const double delayer_waiting = in.get<double>();
        const SparseProfile delayer = get_profile(in);
        const WaitState* wait = own_wait(view, WaitPattern::LateReceiver);
        if (!wait) break;  // the receiver saw a wait this rank did not record
        const IntervalProfile mine = interval(view);
        reply_short_ = static_cast<double>(wait->waiting);
        reply_long_ = long_cost(view.index());
        reply_shares_ =
            share_costs(delayer, delayer_waiting, mine.processing, reply_short_, reply_long_);
        classify(view, WaitPattern::LateReceiver, wait->waiting,
                 reply_shares_.explained ? reply_shares_.indirect : 0.0);
        reply_kind_ = Kind::LateReceiver;
        break;
    }
    default: throw Error(trace_->anchor_path, "delay-cost payload of an unknown kind");
    }
}

bool DelayCostAnalysis::carries_data(const EventView& view) const { return expects_reply(view); }

bool DelayCostAnalysis::expects_reply(const EventView& view) const {
    if (view.kind() != replay::EventKind::Recv) return false;
    return own_wait(view, WaitPattern::LateSender) != nullptr || late_receiver_caused(view) > 0;
}

bool DelayCostAnalysis::defers_reply(const EventView& view) const {
    // As in pack(): a Late Sender wait takes precedence. Its classification
    // reads γ_long of this wait state, final once the pass is here (only
    // later wait states add to it, and the pass has met them all).
    return own_wait(view, WaitPattern::LateSender) != nullptr;
}

void DelayCostAnalysis::pack_reply(const EventView&, replay::PayloadWriter& out) {
    out.put(reply_kind_);
    if (reply_kind_ == Kind::LateSender) {
        out.put<double>(reply_shares_.explained ? reply_shares_.indirect : 0.0);
    } else if (reply_kind_ == Kind::LateReceiver) {
        out.put<std::uint8_t>(reply_shares_.explained ? 1 : 0);
        out.put<double>(reply_short_);
        out.put<double>(reply_long_);
        out.put<double>(reply_shares_.per_waiting_tick);
        out.put_span<double>(reply_shares_.short_term);
        out.put_span<double>(reply_shares_.long_term);
    }
    reply_kind_ = Kind::None;
}

void DelayCostAnalysis::unpack_reply(const EventView& view, replay::PayloadReader& in) {
    const Kind kind = in.get<Kind>();
    if (kind == Kind::LateReceiver) {
        CostShares shares;
        shares.explained = in.get<std::uint8_t>() != 0;
        const double short_cost = in.get<double>();
        const double long_cost_in = in.get<double>();
        shares.per_waiting_tick = in.get<double>();
        shares.short_term = in.get_vector<double>();
        shares.long_term = in.get_vector<double>();
        if (shares.explained && (shares.short_term.size() != held_interval_.processing.paths.size() ||
                                 shares.long_term.size() != shares.short_term.size()))
            throw Error(trace_->anchor_path, "delay-cost reply does not match the receiver's profile");
        charge(view, held_interval_, shares,
               {Metric::DelayLateReceiver, Metric::DelayLateReceiverLongterm},
               shares.explained ? 0.0 : short_cost, shares.explained ? 0.0 : long_cost_in);
        held_interval_ = {};
        return;
    }
    const double indirect = kind == Kind::LateSender ? in.get<double>() : 0.0;
    if (const WaitState* wait = own_wait(view, WaitPattern::LateSender))
        classify(view, WaitPattern::LateSender, wait->waiting, indirect);
}

// Before the pass: only a rank that waited here contributes (see
// collective()); where nobody did, the exchange is spared.
bool DelayCostAnalysis::exchanges_at(const EventView& view) const {
    if (!collective_delay(view.collective().op)) return false;
    const WaitState* wait = points_->wait_states.find(view.index());
    return wait && has_delay_costs(*wait);
}

replay::CollectiveTask DelayCostAnalysis::on_collective(const EventView& view,
                                                        replay::CollectiveExchange& exchange) {
    if (exchange.size() <= 1 || !exchange.active()) co_return;
    const auto metrics = collective_delay(view.collective().op);
    if (!metrics) co_return;
    co_await collective(view, exchange, {metrics->short_term, metrics->long_term});
}

// Three steps of logarithmic depth: find the delayer (if anyone waited),
// broadcast its profile, sum the waiting ranks' shares onto it.
replay::CollectiveTask DelayCostAnalysis::collective(const EventView& view,
                                                     replay::CollectiveExchange& exchange,
                                                     DelayMetrics metrics) {
    const WaitState* wait = points_->wait_states.find(view.index());
    const double waiting = wait && wait->waiting > 0 ? static_cast<double>(wait->waiting) : 0.0;
    // The rank everyone waited for knows it from the forward pass (its own
    // synchronization point names itself as the cause): it scans its
    // interval now and announces the size of its profile with the search
    // for the delayer, so that the broadcast below needs no size of its own.
    const bool may_delay = wait && wait->cause == exchange.rank();
    IntervalProfile delayer_interval;
    if (may_delay) delayer_interval = interval(view);
    const std::size_t announced = may_delay ? 1 + 2 * delayer_interval.processing.paths.size() : 0;
    // [delayer, longest wait, size of the delayer's profile (0: unknown)]
    std::array<double, 3> who{waiting > 0 && wait->cause >= 0 ? wait->cause : -1.0, waiting,
                              static_cast<double>(announced)};
    co_await exchange.allreduce(who, replay::ReduceOp::Max);
    if (who[0] < 0 || who[1] <= 0) co_return;
    const int delayer_rank = static_cast<int>(who[0]);
    const bool delaying = exchange.rank() == delayer_rank;

    // The delayer's profile as [waiting, paths..., values...].
    std::vector<double> shipped;
    if (delaying) {
        if (!may_delay) delayer_interval = interval(view);
        const auto& p = delayer_interval.processing;
        shipped.reserve(1 + 2 * p.paths.size());
        shipped.push_back(delayer_interval.waiting);
        for (const CallPathId c : p.paths) shipped.push_back(static_cast<double>(c));
        shipped.insert(shipped.end(), p.values.begin(), p.values.end());
    }
    // Every member knows whether a size was announced; where none was (the
    // delayer did not know itself), the broadcast carries its size.
    if (who[2] > 0) {
        if (delaying && static_cast<double>(shipped.size()) != who[2])
            throw Error(trace_->anchor_path, "two ranks claim to have delayed the same collective");
        shipped.resize(static_cast<std::size_t>(who[2]));
        co_await exchange.broadcast_fixed(shipped, delayer_rank);
    } else {
        co_await exchange.broadcast(shipped, delayer_rank);
    }
    if (shipped.empty() || shipped.size() % 2 == 0)
        throw Error(trace_->anchor_path, "delay-cost broadcast holds a malformed profile");
    const std::size_t n = (shipped.size() - 1) / 2;
    SparseProfile delayer;
    delayer.paths.reserve(n);
    for (std::size_t i = 0; i < n; ++i) delayer.paths.push_back(static_cast<CallPathId>(shipped[1 + i]));
    delayer.values.assign(shipped.begin() + 1 + static_cast<std::ptrdiff_t>(n), shipped.end());

    // [short-term by path, long-term by path, per waiting tick,
    //  unexplained short-term, unexplained long-term]
    std::vector<double> sums(2 * n + 3, 0.0);
    if (waiting > 0 && !delaying) {
        const IntervalProfile mine = interval(view);
        const double long_cost_here = long_cost(view.index());
        const CostShares shares =
            share_costs(delayer, shipped[0], mine.processing, waiting, long_cost_here);
        if (shares.explained) {
            std::copy(shares.short_term.begin(), shares.short_term.end(), sums.begin());
            std::copy(shares.long_term.begin(), shares.long_term.end(),
                      sums.begin() + static_cast<std::ptrdiff_t>(n));
            sums[2 * n] = shares.per_waiting_tick;
        } else {
            sums[2 * n + 1] = waiting;
            sums[2 * n + 2] = long_cost_here;
        }
    }
    co_await exchange.reduce_sum(sums, delayer_rank);
    if (!delaying) co_return;

    CostShares total;
    total.explained = true;
    total.short_term.assign(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(n));
    total.long_term.assign(sums.begin() + static_cast<std::ptrdiff_t>(n),
                           sums.begin() + static_cast<std::ptrdiff_t>(2 * n));
    total.per_waiting_tick = sums[2 * n];
    charge(view, delayer_interval, total, metrics, sums[2 * n + 1], sums[2 * n + 2]);
}

}  // namespace hindsight
