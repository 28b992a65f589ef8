#include "analyses/critical_path.hpp"

#include <algorithm>
#include <array>

#include "analyses/event_gaps.hpp"
#include "analyses/inclusive_values.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using trace::EventIndex;
using trace::EventKind;
using trace::EventView;

namespace {

bool is_communication(EventKind kind) {
    return kind == EventKind::Send || kind == EventKind::Recv || kind == EventKind::CollectiveEnd;
}

}  // namespace

void CriticalPathAnalysis::begin_pass(const trace::LocalTrace& trace,
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
        if (finish_event_ == trace::kNoEvent) finish_event_ = i;
        start_event_ = i;
    }
    if (start_event_ == trace::kNoEvent) return;

    // Each call path's time on this rank over the whole trace, without the
    // rank's waiting.
    for (EventIndex k = 0; k + 1 < trace.events.size(); ++k) {
        const CallPathId cnode = call_path_after(trace, k);
        if (cnode != kNoCallPath) activity_[cnode] += static_cast<double>(trace.events[k + 1].time - trace.events[k].time);
        if (!is_communication(trace.events[k].kind)) continue;
        const WaitState* wait = points_->wait_states.find(k);
        if (wait && is_synchronization_wait(*wait)) activity_[trace.events[k].cnode] -= static_cast<double>(wait->waiting);
    }
    for (double& ticks : activity_) ticks = std::max(ticks, 0.0);
}

void CriticalPathAnalysis::accumulate(CallPathId cnode, Ticks from, Ticks to) {
    if (to > from && cnode != kNoCallPath) on_path_[cnode] += static_cast<double>(to - from);
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
    // A collective's wait is measured from the operation's begin, which may
    // come after the call's entry; it ends where the awaited rank arrived.
    Ticks from = view.enter().time;
    if (view.kind() == EventKind::CollectiveEnd && view.collective().begin != trace::Collective::kNoBegin)
        from = view.collective().begin;
    const Ticks until = from + wait.waiting;
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

replay::ReplyNeed CriticalPathAnalysis::reply_need(const EventView& view) const {
    if (!started_ || finished_ || view.kind() != EventKind::Recv) return replay::ReplyNeed::None;
    const auto it = points_->late_receivers_caused.find(view.index());
    const bool caused = it != points_->late_receivers_caused.end() && it->second > 0;
    return caused ? replay::ReplyNeed::AtBoundary : replay::ReplyNeed::None;
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
                                                           replay::CollectiveChannel& exchange) {
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
                                                   replay::CollectiveChannel& exchange) {
    const Ticks enter = view.enter().time;
    const replay::RankedValue last = co_await exchange.allreduce_maxloc(static_cast<double>(enter));
    started_ = true;
    if (last.rank == exchange.rank()) take_token(view, enter);
}

// One reduction tells every member whether the holder waited here and for
// whom: only the holder contributes.
replay::CollectiveTask CriticalPathAnalysis::pass_collective(const EventView& view,
                                                             replay::CollectiveChannel& exchange) {
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
// rest of the path locally, then all ranks combine their profiles. The path
// begins where the rank holding it entered MPI_Init (or the first
// collective on MPI_COMM_WORLD, in a trace without MPI_Init): what a rank
// did before is outside the measured program.
replay::CollectiveTask CriticalPathAnalysis::finish(const EventView& view,
                                                    replay::CollectiveChannel& exchange) {
    const trace::LocalTrace& trace = view.trace();
    const EventIndex first = view.enter_index() == trace::kNoEvent ? 0 : view.enter_index();
    for (EventIndex k = view.index(); k-- > first;) {
        if (!token_.held) break;
        accumulate(call_path_after(trace, k), trace.events[k].time, token_.position);
        token_.position = std::min(token_.position, trace.events[k].time);
    }
    finished_ = true;

    // G(c), every rank's time in c on the path, and the ranks' activities.
    const std::size_t paths = on_path_.size();
    std::vector<double> totals(2 * paths);
    std::copy(on_path_.begin(), on_path_.end(), totals.begin());
    std::copy(activity_.begin(), activity_.end(), totals.begin() + static_cast<std::ptrdiff_t>(paths));
    co_await exchange.allreduce(totals, replay::ReduceOp::Sum);
    const std::span<const double> path_total(totals.data(), paths);
    const std::span<const double> activity_total(totals.data() + paths, paths);

    // Imbalance costs are computed on each rank and summed (Böhme et al.,
    // IPDPS 2012, §II-D3): [all, inter-partition] by call path.
    std::vector<double> costs = imbalance_costs(path_total);
    co_await exchange.allreduce(costs, replay::ReduceOp::Sum);
    record(path_total, activity_total, std::span<const double>(costs.data(), paths),
           std::span<const double>(costs.data() + paths, paths), exchange.size());
}

// This rank's headroom h (the path's length minus the rank's own time)
// spread over the call paths c in proportion to their excess
// δ(c) = max(G(c) − d(c), 0); inter-partition where the rank never ran c.
std::vector<double> CriticalPathAnalysis::imbalance_costs(std::span<const double> path_total) const {
    const std::size_t paths = on_path_.size();
    double length = 0, own_time = 0, excess_sum = 0;
    for (std::size_t c = 0; c < paths; ++c) {
        length += path_total[c];
        own_time += activity_[c];
        excess_sum += std::max(path_total[c] - activity_[c], 0.0);
    }
    std::vector<double> costs(2 * paths, 0.0);
    if (!(excess_sum > 0)) return costs;
    // The headroom is this rank's waiting; a rank busy for longer than the
    // path (in its MPI_Finalize, after the path's end) has none.
    const double scale = std::max(length - own_time, 0.0) / excess_sum;
    for (std::size_t c = 0; c < paths; ++c) {
        const double cost = scale * std::max(path_total[c] - activity_[c], 0.0);
        costs[c] = cost;
        if (activity_[c] <= 0) costs[paths + c] = cost;
    }
    return costs;
}

void CriticalPathAnalysis::record(std::span<const double> path_total, std::span<const double> activity_total,
                                  std::span<const double> impact_total, std::span<const double> inter_total,
                                  int ranks) {
    const trace::LocalTrace& trace = *trace_;
    auto seconds = [&](double ticks) { return ticks_to_seconds(trace, ticks); };
    for (std::size_t c = 0; c < on_path_.size(); ++c) {
        // Values of the whole call path go to the ranks that carried it on
        // the path, in proportion to their share of G(c).
        const double share = path_total[c] > 0 ? on_path_[c] / path_total[c] : 0.0;
        const double imbalance = std::max(path_total[c] - activity_total[c] / static_cast<double>(ranks), 0.0);
        // A rank's activity counts as critical up to the call path's time on
        // the path; the rest it could have spent elsewhere.
        const double critical = std::min(activity_[c], path_total[c]);
        const double impact = share * impact_total[c];
        const double inter = share * inter_total[c];
        const std::array<MetricValue, 7> values{{
            {Metric::CriticalPath, seconds(on_path_[c])},
            {Metric::CriticalPathImbalance, seconds(share * imbalance)},
            {Metric::CriticalPathActivities, seconds(critical)},
            {Metric::NonCriticalPathActivities, seconds(activity_[c] - critical)},
            {Metric::CriticalImbalanceImpact, seconds(impact)},
            {Metric::IntraPartitionImbalance, seconds(impact - inter)},
            {Metric::InterPartitionImbalance, seconds(inter)},
        }};
        add_inclusive(*cube_, static_cast<CallPathId>(c), values);
    }
}

}  // namespace hindsight::analyses
