#include "analyses/critical_path.hpp"

#include <algorithm>
#include <array>

#include "analyses/event_gaps.hpp"
#include "analyses/inclusive_values.hpp"
#include "common/error.hpp"

namespace hindsight {

using replay::EventIndex;
using replay::EventKind;
using replay::EventView;

namespace {

bool is_communication(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Recv || kind == EventKind::CollectiveEnd;
}

}  // namespace

void CriticalPathAnalysis::begin_pass(const replay::LocalTrace& trace,
                                      replay::Direction direction) {
    if (direction != replay::Direction::Backward)
        throw Error(trace.anchor_path, "the critical-path analysis needs a backward replay");
    trace_ = &trace;
    const std::size_t paths = trace.call_tree.size();
    on_path_.assign(paths, 0.0);
    activity_.assign(paths, 0.0);

    // The first and the last collective on MPI_COMM_WORLD bound the path.
    // Every rank takes part in both, so all ranks agree on them.
    const auto ranks = static_cast<std::size_t>(trace.definitions.mpi_rank_count());
    std::vector<signed char> is_world(trace.definitions.communicators.size(), -1);
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].kind != EventKind::CollectiveEnd) continue;
        const CommId comm = trace.collective(trace.events[i]).comm;
        if (comm >= is_world.size()) continue;
        if (is_world[comm] < 0)
            is_world[comm] = trace.definitions.world_ranks(comm).size() == ranks ? 1 : 0;
        if (is_world[comm] == 0) continue;
        if (finish_event_ == replay::kNoEvent) finish_event_ = i;
        start_event_ = i;
    }
    if (start_event_ == replay::kNoEvent) return;

    // Each call path's time on this rank up to its MPI_Finalize entry; the
    // waits come off as the pass meets them.
    const EventView start(trace, start_event_);
    const Ticks limit = start.enter().time;
    for (EventIndex k = 0; k + 1 < trace.events.size(); ++k) {
        const Ticks from = trace.events[k].time;
        const Ticks to = std::min(trace.events[k + 1].time, limit);
        const CallPathId cnode = call_path_after(trace, k);
        if (to > from && cnode != kNoCallPath) activity_[cnode] += static_cast<double>(to - from);
    }
}

void CriticalPathAnalysis::accumulate(CallPathId cnode, Ticks from, Ticks to) {
    if (to > from && cnode != kNoCallPath) on_path_[cnode] += static_cast<double>(to - from);
}

void CriticalPathAnalysis::subtract_wait(const EventView& view) {
    if (!is_communication(view.kind())) return;
    const WaitState* wait = points_->wait_states.find(view.index());
    if (wait && wait->waiting > 0) activity_[view.cnode()] -= static_cast<double>(wait->waiting);
}

// Every event passes here first: the holder accounts for the gap after it.
void CriticalPathAnalysis::pass_event(const EventView& view) {
    // A hand-off nobody asked for (the receiver did not know the send had
    // waited): the token stays, and the wait counts as path time.
    pending_ = {};
    if (!started_ || finished_) return;
    before_ = token_.position;
    if (token_.held) {
        accumulate(call_path_after(view.trace(), view.index()), view.time(), token_.position);
        token_.position = std::min(token_.position, view.time());
    }
    if (view.index() != start_event_) subtract_wait(view);
}

const WaitState* CriticalPathAnalysis::hand_off_wait(const EventView& view) const {
    if (!token_.held || !started_ || finished_) return nullptr;
    const WaitState* wait = points_->wait_states.find(view.index());
    if (!wait || wait->waiting <= 0 || wait->cause < 0) return nullptr;
    return wait;
}

// The holder was in this MPI call from `before_` back to its entry; of that
// it keeps the part after its wait ended and hands the rest of the path to
// the rank it waited for.
Ticks CriticalPathAnalysis::give_token(const EventView& view, const WaitState& wait) {
    const Ticks until = view.enter().time + wait.waiting;
    const CallPathId cnode = view.cnode();
    // pass_event() counted [event, before_] already; a send's event comes
    // before its wait, so that may include waiting time.
    on_path_[cnode] += static_cast<double>(std::max<Ticks>(0, before_ - until)) -
                       static_cast<double>(std::max<Ticks>(0, before_ - view.time()));
    token_ = {};
    return until;
}

void CriticalPathAnalysis::take_token(const EventView& view, Ticks until) {
    token_.held = true;
    token_.position = std::min(until, view.time());
}

void CriticalPathAnalysis::on_enter(const EventView& view) { pass_event(view); }
void CriticalPathAnalysis::on_leave(const EventView& view) { pass_event(view); }

// Backward, a message goes from its receiver to its sender: a Late Sender
// hands the token on with it.
void CriticalPathAnalysis::pack(const EventView& view, replay::PayloadWriter& out) {
    pass_event(view);
    // Only a hand-off travels; its absence is an empty payload part.
    const WaitState* wait = hand_off_wait(view);
    if (wait && wait->pattern == WaitPattern::LateSender) out.put<Ticks>(give_token(view, *wait));
}

void CriticalPathAnalysis::unpack(const EventView& view, replay::PayloadReader& in) {
    pass_event(view);
    if (!in.empty()) take_token(view, in.get<Ticks>());
    // A Late Receiver: the token goes back to the receiver in the reply.
    const WaitState* wait = hand_off_wait(view);
    if (wait && wait->pattern == WaitPattern::LateReceiver) pending_.due = true;
}

// Before the pass: the receives that may hand the token on (a Late Sender
// wait) or ask for it back (a Late Receiver they caused).
bool CriticalPathAnalysis::carries_data(const EventView& view) const {
    if (view.kind() != EventKind::Recv) return false;
    const WaitState* wait = points_->wait_states.find(view.index());
    if (wait && wait->pattern == WaitPattern::LateSender && wait->waiting > 0 && wait->cause >= 0) return true;
    const auto it = points_->late_receivers_caused.find(view.index());
    return it != points_->late_receivers_caused.end() && it->second > 0;
}

bool CriticalPathAnalysis::expects_reply(const EventView& view) const {
    if (!started_ || finished_ || view.kind() != EventKind::Recv) return false;
    const auto it = points_->late_receivers_caused.find(view.index());
    return it != points_->late_receivers_caused.end() && it->second > 0;
}

void CriticalPathAnalysis::pack_reply(const EventView& view, replay::PayloadWriter& out) {
    const WaitState* wait = pending_.due ? hand_off_wait(view) : nullptr;
    pending_ = {};
    if (wait) out.put<Ticks>(give_token(view, *wait));
}

void CriticalPathAnalysis::unpack_reply(const EventView& view, replay::PayloadReader& in) {
    if (!in.empty()) take_token(view, in.get<Ticks>());
}

replay::CollectiveTask CriticalPathAnalysis::on_collective(const EventView& view,
                                                           replay::CollectiveExchange& exchange) {
    pass_event(view);
    if (finished_) co_return;
    if (view.index() == start_event_) {
        co_await start(view, exchange);
    } else if (started_ && exchange.active()) {
        co_await pass_collective(view, exchange);
    }
    if (started_ && view.index() == finish_event_) co_await finish(view, exchange);
}

// Before the pass: the collectives that bound the path, and those where this
// rank waited and may hand the token on. Where no member waited, the holder
// keeps the token without a word.
bool CriticalPathAnalysis::exchanges_at(const EventView& view) const {
    if (view.index() == start_event_ || view.index() == finish_event_) return true;
    const WaitState* wait = points_->wait_states.find(view.index());
    return wait && wait->waiting > 0 && wait->cause >= 0;
}

// The path ends where the last rank entered MPI_Finalize.
replay::CollectiveTask CriticalPathAnalysis::start(const EventView& view,
                                                   replay::CollectiveExchange& exchange) {
    const Ticks enter = view.enter().time;
    const replay::RankedValue last = co_await exchange.allreduce_maxloc(static_cast<double>(enter));
    started_ = true;
    if (last.rank == exchange.rank()) take_token(view, enter);
}

// One reduction tells every member whether the holder waited here and for
// whom: only the holder contributes.
replay::CollectiveTask CriticalPathAnalysis::pass_collective(const EventView& view,
                                                             replay::CollectiveExchange& exchange) {
    std::array<double, 2> hand_off{0.0, 0.0};  // (cause + 1, end of the wait)
    if (const WaitState* wait = hand_off_wait(view)) {
        hand_off[1] = static_cast<double>(give_token(view, *wait));
        hand_off[0] = wait->cause + 1.0;
    }
    co_await exchange.allreduce(hand_off, replay::ReduceOp::Max);
    if (hand_off[0] > 0 && static_cast<int>(hand_off[0]) - 1 == exchange.rank())
        take_token(view, static_cast<Ticks>(hand_off[1]));
}

// At the first collective on MPI_COMM_WORLD: the holder accounts for the
// rest of the path locally, then all ranks combine their profiles.
replay::CollectiveTask CriticalPathAnalysis::finish(const EventView& view,
                                                    replay::CollectiveExchange& exchange) {
    const replay::LocalTrace& trace = view.trace();
    for (EventIndex k = view.index(); k-- > 0;) {
        if (token_.held) {
            accumulate(call_path_after(trace, k), trace.events[k].time, token_.position);
            token_.position = std::min(token_.position, trace.events[k].time);
        }
        subtract_wait(EventView(trace, k));
    }
    finished_ = true;

    const std::size_t paths = on_path_.size();
    std::vector<double> totals(2 * paths);
    std::copy(on_path_.begin(), on_path_.end(), totals.begin());
    std::copy(activity_.begin(), activity_.end(), totals.begin() + static_cast<std::ptrdiff_t>(paths));
    co_await exchange.allreduce(totals, replay::ReduceOp::Sum);
    const std::span<const double> path_total(totals.data(), paths);
    const std::span<const double> activity_total(totals.data() + paths, paths);
    record(path_total, activity_total, exchange.size());
}

void CriticalPathAnalysis::record(std::span<const double> path_total,
                                  std::span<const double> activity_total, int ranks) {
    const replay::LocalTrace& trace = *trace_;
    const std::size_t paths = on_path_.size();
    double length = 0;
    double own_time = 0;
    double excess_sum = 0;
    std::vector<double> excess(paths, 0.0);
    for (std::size_t c = 0; c < paths; ++c) {
        activity_[c] = std::max(activity_[c], 0.0);
        length += path_total[c];
        own_time += activity_[c];
        excess[c] = std::max(path_total[c] - activity_[c], 0.0);
        excess_sum += excess[c];
    }
    // The headroom (this rank's waiting, including the wait for the last
    // rank to finish) spread over the call paths it lacks time in.
    const double headroom = std::max(length - own_time, 0.0);
    const double scale = excess_sum > 0 ? headroom / excess_sum : 0.0;

    auto seconds = [&](double ticks) { return ticks_to_seconds(trace, ticks); };
    for (std::size_t c = 0; c < paths; ++c) {
        const double imbalance =
            std::max(path_total[c] - activity_total[c] / static_cast<double>(ranks), 0.0);
        const double imbalance_share =
            path_total[c] > 0 ? imbalance * on_path_[c] / path_total[c] : 0.0;
        const bool critical = path_total[c] > 0;
        const bool ran_here = activity_[c] > 0;
        const double impact = scale * excess[c];
        const std::array<MetricValue, 7> values{{
            {Metric::CriticalPath, seconds(on_path_[c])},
            {Metric::CriticalPathImbalance, seconds(imbalance_share)},
            {Metric::CriticalPathActivities, critical ? seconds(activity_[c]) : 0.0},
            {Metric::NonCriticalPathActivities, critical ? 0.0 : seconds(activity_[c])},
            {Metric::CriticalImbalanceImpact, seconds(impact)},
            {Metric::IntraPartitionImbalance, ran_here ? seconds(impact) : 0.0},
            {Metric::InterPartitionImbalance, ran_here ? 0.0 : seconds(impact)},
        }};
        add_inclusive(*cube_, static_cast<CallPathId>(c), values);
    }
}

}  // namespace hindsight
