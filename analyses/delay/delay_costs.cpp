#include "analyses/delay/delay_costs.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "analyses/delay/collective_part_points.hpp"
#include "analyses/delay/thread_points.hpp"
#include "analyses/event_gaps.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using trace::CollectiveOp;
using trace::EventIndex;
using trace::EventKind;
using trace::EventView;

using cost_records::write_record;

namespace {

constexpr std::uint32_t kNoWaiting = std::numeric_limits<std::uint32_t>::max();
// What one round may carry from this rank: millions of waits ready at once
// would otherwise all be in memory twice (written and received) at once.
constexpr std::size_t kRoundBytes = std::size_t{4} << 20;

// The pattern of a collective operation's wait states, by the operation,
// which all members share; none for the operations whose waits have no
// delay costs.
std::optional<CostPattern> collective_pattern(CollectiveOp op) {
    const std::optional<DelayMetrics>& delay = pattern_info(collective_wait_pattern(op)).delay;
    return delay ? std::optional<CostPattern>(delay->pattern) : std::nullopt;
}

}  // namespace

// What the rounds work with; made when they begin and dropped when they
// end, so that the round analyses never hold their memory at once.
std::vector<PairedPoint> DelayCostAnalysis::exchange_paired_points(replay::Exchange& exchange) {
    paired_waits_ = thread_message_waits(*trace_);
    partner_waited_ = partners_waited(*trace_, paired_waits_, exchange);
    return paired_points(*trace_, paired_waits_, partner_waited_);
}

void DelayCostAnalysis::prepare(std::span<const PairedPoint> paired) {
    const trace::LocalTrace& trace = *trace_;
    collective_waits_ = thread_collective_waits(trace);
    sync_points_ = SyncPointList(trace, *facts_, hybrid_.barrier_waits, rma_, paired,
                                 collective_part_points(trace, collective_waits_), hybrid_.team_starts,
                                 hybrid_.in_parallel);
    polling_ = PollingCalls(trace);
    scanner_ = IntervalScanner(trace, sync_points_, hybrid_.team_edges);
    members_.assign(trace.definitions.communicators.size(), {});
    point_by_operation_ = OperationIndex(sync_points_);
    waiting_at_.assign(sync_points_.size(), kNoWaiting);
    shares_due_.assign(sync_points_.size(), 0);
    long_costs_.clear();
    propagating_.assign(sync_points_.size(), 0.0);
    started_ = false;
    outstanding_ = 0;
    passed_early_ = 0;
    // A wait of the master inside a parallel region kept the team waiting
    // at the next barrier: that waiting goes where the wait's own costs go.
    for (const auto& [event, ticks] : hybrid_.barrier_costs)
        if (const std::size_t p = sync_points_.position(event); p != SyncPointList::kNone)
            long_costs_[p][kOmpBarrierCosts] += ticks;
    // A wait of the master outside parallel regions idles every worker as
    // long: that idleness is the wait's long-term idleness cost from the
    // start, and goes where the wait's own costs go.
    if (hybrid_.workers > 0)
        for (std::size_t p = 0; p < sync_points_.size(); ++p) {
            const SyncPoint& point = sync_points_[p];
            if (point.thread != 0 || point.wait <= 0 || point.cnode >= hybrid_.in_parallel.size() ||
                hybrid_.in_parallel[point.cnode])
                continue;
            long_costs_[p][kOmpIdleCosts] = static_cast<double>(hybrid_.workers) * static_cast<double>(point.wait);
        }
}

void DelayCostAnalysis::release() {
    barrier_wait_costs_.clear();
    for (std::size_t k = 0; k < hybrid_.barrier_waits.size(); ++k)
        barrier_wait_costs_.push_back(long_costs(sync_points_.local_wait(k)));
    sync_points_ = SyncPointList();
    scanner_ = IntervalScanner();
    point_by_operation_ = OperationIndex();
    long_costs_ = {};
    propagating_ = {};
    paired_waits_ = {};
    partner_waited_ = {};
    collective_waits_ = {};
    waiting_ = {};
    waiting_at_ = {};
    shares_due_ = {};
    inputs_ = {};
    ready_ = {};
}

const WaitState* DelayCostAnalysis::own_wait(EventIndex event, WaitPattern pattern) const {
    const WaitState* wait = facts_->wait_states().find(event);
    return wait && wait->pattern == pattern && has_delay_costs(*wait) ? wait : nullptr;
}

std::optional<CollectiveOp> DelayCostAnalysis::collective_op(std::size_t point) const {
    const SyncPoint& p = sync_points_[point];
    if (p.collective >= 0) return trace_->threads.collective_parts[static_cast<std::size_t>(p.collective)].op;
    if (p.event == trace::kNoEvent || trace_->events[p.event].kind != EventKind::CollectiveEnd) return std::nullopt;
    return trace_->collective(trace_->events[p.event]).op;
}

bool DelayCostAnalysis::caused_late_receiver(EventIndex event) const {
    const auto it = facts_->late_receivers_caused().find(event);
    return it != facts_->late_receivers_caused().end() && it->second > 0;
}

Ticks DelayCostAnalysis::own_waiting(std::size_t point, WaitPattern pattern) const {
    const SyncPoint& p = sync_points_[point];
    if (p.paired >= 0) {
        const auto i = static_cast<std::size_t>(p.paired);
        const Ticks wait = paired_wait(trace_->threads.paired[i], paired_waits_[i]);
        return paired_waits_[i].pattern == pattern ? wait : 0;
    }
    if (p.event == trace::kNoEvent) return 0;
    const WaitState* wait = own_wait(p.event, pattern);
    return wait ? wait->waiting : 0;
}

void DelayCostAnalysis::book(std::uint32_t thread, Metric metric, CallPathId cnode, double seconds) {
    if (thread == 0)
        cube_->add(metric, cnode, seconds);
    else
        thread_charges_.push_back({thread, metric, cnode, seconds});
}

const std::vector<int>& DelayCostAnalysis::members(CommId comm) {
    if (comm >= members_.size()) members_.resize(std::size_t{comm} + 1);
    if (members_[comm].empty()) members_[comm] = trace_->definitions.world_ranks(comm);
    return members_[comm];
}

int DelayCostAnalysis::peer_world_rank(EventIndex event) {
    const trace::Message& msg = EventView(*trace_, event).message();
    const std::vector<int>& members = this->members(msg.comm);
    return msg.partner >= 0 && static_cast<std::size_t>(msg.partner) < members.size()
               ? members[static_cast<std::size_t>(msg.partner)]
               : msg.partner;
}

PatternCosts DelayCostAnalysis::long_costs(std::size_t point) const {
    const auto it = long_costs_.find(point);
    return it == long_costs_.end() ? PatternCosts{} : it->second;
}

OperationId DelayCostAnalysis::for_partner(std::size_t point) const {
    const SyncPoint& p = sync_points_[point];
    if (p.paired < 0) return p.operation;
    const trace::ThreadPairedMessage& m = trace_->threads.paired[static_cast<std::size_t>(p.paired)];
    return paired_message_name(*trace_, m, !m.send);
}

std::size_t DelayCostAnalysis::point_of(OperationId operation, const char* what) const {
    const std::size_t point = point_by_operation_.find(operation);
    if (point == SyncPointList::kNone)
        throw Error(trace_->anchor_path, std::string(what) + " names an operation at which rank " +
                                             std::to_string(trace_->rank) + " has no synchronization point");
    return point;
}

const IntervalProfile& DelayCostAnalysis::interval_with(std::size_t point, int peer) {
    return scanner_.interval(sync_points_.span(point, sync_points_.partner(point, peer)));
}

// ---- the rounds --------------------------------------------------------

void DelayCostAnalysis::run(const trace::LocalTrace& trace, const ForwardFacts& facts,
                            replay::Exchange& exchange) {
    trace_ = &trace;
    facts_ = &facts;
    thread_charges_.clear();
    prepare(exchange_paired_points(exchange));
    replay::WavefrontRounds rounds(exchange, trace_->anchor_path);
    collect_items(rounds);
    rounds.run(
        [&](int from, replay::PayloadReader& in) {
            while (!in.empty()) receive(from, in, rounds);
        },
        [&] { return advance(rounds); }, [&] { return unstick(rounds); });
    rounds_ = rounds.rounds();
    release();
}

void DelayCostAnalysis::add_waiting(std::size_t point, Waiting::Kind kind, std::optional<CostPattern> pattern,
                                    int delayer, bool has_input) {
    waiting_at_[point] = static_cast<std::uint32_t>(waiting_.size());
    waiting_.push_back({point, kind, pattern, delayer, has_input, false});
    ++outstanding_;
}

void DelayCostAnalysis::collect_items(replay::WavefrontRounds& rounds) {
    for (std::size_t p = 0; p < sync_points_.size(); ++p) {
        const SyncPoint& point = sync_points_[p];
        if (point.paired >= 0) {
            // As a receive of the store: its Late Sender wait first.
            const trace::ThreadPairedMessage& m = trace_->threads.paired[static_cast<std::size_t>(point.paired)];
            if (own_waiting(p, WaitPattern::LateSender) > 0) {
                add_waiting(p, Waiting::Kind::DelayerDivides, CostPattern::LateSender, m.peer, true);
                write_record(rounds.to(m.peer), for_partner(p), cost_records::Claim{});
            } else if (!m.send && partner_waited_[static_cast<std::size_t>(point.paired)]) {
                expect_costs(p, m.peer);
                const IntervalProfile& mine = interval_with(p, m.peer);
                write_record(rounds.to(m.peer), for_partner(p),
                             cost_records::LateReceiverProfile<const SparseProfile&>{mine.waiting, mine.processing});
            }
            continue;
        }
        if (point.collective >= 0) {
            collect_collective_part(p, rounds);
            continue;
        }
        if (point.event == trace::kNoEvent) continue;
        const trace::Event& event = trace_->events[point.event];
        if (point.rma_wait >= 0) {
            // Like a Late Sender's: the rank whose call ended the wait
            // divides its costs.
            const RmaWait& wait = rma_.waits[static_cast<std::size_t>(point.rma_wait)];
            add_waiting(p, Waiting::Kind::DelayerDivides, wait.pattern, wait.ender, true);
            write_record(rounds.to(wait.ender), point.operation, cost_records::Claim{});
        } else if (event.kind == EventKind::Recv) {
            // As Scalasca: a Late Sender wait of the receive comes first.
            if (own_wait(point.event, WaitPattern::LateSender)) {
                const int sender = peer_world_rank(point.event);
                add_waiting(p, Waiting::Kind::DelayerDivides, CostPattern::LateSender, sender, true);
                write_record(rounds.to(sender), point.operation, cost_records::Claim{});
            } else if (caused_late_receiver(point.event)) {
                // This rank delayed the sender: the sender divides the costs
                // over this rank's interval and answers.
                const int sender = peer_world_rank(point.event);
                expect_costs(p, sender);
                const IntervalProfile& mine = interval_with(p, sender);
                write_record(rounds.to(sender), point.operation,
                             cost_records::LateReceiverProfile<const SparseProfile&>{mine.waiting, mine.processing});
            }
        } else if (event.kind == EventKind::CollectiveEnd) {
            const trace::Collective& collective = trace_->collective(event);
            const std::optional<CostPattern> pattern = collective_pattern(collective.op);
            const std::vector<int>& members = this->members(collective.comm);
            const WaitState* wait = facts_->wait_states().find(point.event);
            if (members.size() <= 1 || !wait) continue;
            const bool costs = pattern && has_delay_costs(*wait);
            // A wait without delay costs of its own (at MPI_Finalize) still
            // kept the workers idle, and the paper charges that idleness to
            // whatever caused the wait, like any other wait's: it goes to
            // the rank that came last, long-term only.
            const bool idleness =
                !costs && wait->waiting > 0 && wait->cause >= 0 && long_costs(p)[kOmpIdleCosts] > 0;
            if (!costs && !idleness) continue;
            if (static_cast<std::size_t>(wait->cause) >= members.size())
                throw Error(trace_->anchor_path, "a collective wait names a cause outside its communicator");
            const int delayer = members[static_cast<std::size_t>(wait->cause)];
            add_waiting(p, Waiting::Kind::Collective, costs ? pattern : std::nullopt, delayer, false);
            write_record(rounds.to(delayer), point.operation, cost_records::Claim{});
        }
    }
}

// As a collective of the store: a member that waited claims its costs from
// the member it waited for, on that member's thread (the point's partner).
void DelayCostAnalysis::collect_collective_part(std::size_t p, replay::WavefrontRounds& rounds) {
    const SyncPoint& point = sync_points_[p];
    const auto part = static_cast<std::size_t>(point.collective);
    const CollectivePartWait& wait = collective_waits_[part];
    const std::vector<int>& members = this->members(trace_->threads.collective_parts[part].comm);
    if (point.wait <= 0 || wait.awaited < 0 || static_cast<std::size_t>(wait.awaited) >= members.size()) return;
    const int delayer = members[static_cast<std::size_t>(wait.awaited)];
    if (delayer == trace_->rank) return;
    const std::optional<CostPattern> pattern = collective_pattern(trace_->threads.collective_parts[part].op);
    // Outside parallel regions a master's wait idles the workers, too.
    const bool idleness = long_costs(p)[kOmpIdleCosts] > 0;
    if (!pattern && !idleness) return;
    add_waiting(p, Waiting::Kind::Collective, pattern, delayer, false);
    write_record(rounds.to(delayer), point.operation, cost_records::Claim{});
}

void DelayCostAnalysis::receive(int from, replay::PayloadReader& in, replay::WavefrontRounds& rounds) {
    using cost_records::Kind;
    const auto [kind, operation] = cost_records::Head::read(in);
    switch (kind) {
    case Kind::Claim: {
        const std::size_t p = point_of(operation, "a delay-cost claim");
        expect_costs(p, from);
        if (!collective_op(p)) return;
        // A collective's waiting member divides its costs itself, over this
        // rank's interval with it.
        const IntervalProfile& mine = interval_with(p, from);
        write_record(rounds.to(from), operation,
                     cost_records::CollectiveInterval<const SparseProfile&>{mine.waiting, mine.processing});
        return;
    }
    case Kind::LateReceiverProfile: {
        auto delayer = cost_records::LateReceiverProfile<>::read(in);
        const std::size_t point = point_by_operation_.find(operation);
        const bool waited = point != SyncPointList::kNone && own_waiting(point, WaitPattern::LateReceiver) > 0;
        if (!waited) {
            // The receiver saw a wait this rank did not record: nothing to divide.
            write_record(rounds.to(from), point == SyncPointList::kNone ? operation : for_partner(point),
                         cost_records::LateReceiverAnswer{});
            return;
        }
        add_waiting(point, Waiting::Kind::LateReceiver, CostPattern::LateReceiver, from, true);
        inputs_[point] = {delayer.waiting, std::move(delayer.processing)};
        became_ready(point);
        return;
    }
    case Kind::CollectiveInterval: {
        const std::size_t p = point_of(operation, "a delayer's interval");
        if (waiting_at_[p] == kNoWaiting) throw Error(trace_->anchor_path, "a delayer's interval nobody asked for");
        auto body = cost_records::CollectiveInterval<>::read(in);
        inputs_[p] = {body.waiting, std::move(body.processing)};
        waiting_[waiting_at_[p]].has_input = true;
        became_ready(p);
        return;
    }
    case Kind::CostsToDivide:
        divide_costs(point_of(operation, "a wait's costs"), from, in, rounds);
        return;
    case Kind::IndirectAnswer: {
        const double indirect = cost_records::IndirectAnswer::read(in).indirect;
        const std::size_t p = point_of(operation, "a delay-cost answer");
        if (const Ticks waiting = own_waiting(p, WaitPattern::LateSender); waiting > 0)
            classify(p, WaitPattern::LateSender, waiting, indirect);
        --outstanding_;
        return;
    }
    case Kind::LateReceiverAnswer:
        late_receiver_answer(point_of(operation, "a delay-cost answer"), from, in);
        return;
    case Kind::CollectiveAnswer:
        collective_answer(point_of(operation, "a collective's delay costs"), from, in);
        return;
    }
    throw Error(trace_->anchor_path, "delay-cost record of an unknown kind");
}

void DelayCostAnalysis::became_ready(std::size_t point) {
    Waiting& wait = waiting_[waiting_at_[point]];
    if (!started_ || wait.queued || !wait.has_input || shares_due_[point] != 0) return;
    wait.queued = true;
    ready_.push_back(point);
}

bool DelayCostAnalysis::advance(replay::WavefrontRounds& rounds) {
    // The first round brought every claim, so every count is complete now.
    if (!started_) {
        started_ = true;
        for (const Waiting& wait : waiting_) became_ready(wait.point);
    }
    // Latest first (from the back of the sorted list), as a walk backward in
    // time would meet them; a round takes at most kRoundBytes of costs, the
    // rest waits for the next.
    std::sort(ready_.begin(), ready_.end());
    while (!ready_.empty() && rounds.written() < kRoundBytes) {
        pass_on(waiting_[waiting_at_[ready_.back()]], rounds);
        ready_.pop_back();
    }
    return outstanding_ > 0;
}

bool DelayCostAnalysis::unstick(replay::WavefrontRounds& rounds) {
    Waiting* latest = nullptr;
    for (Waiting& wait : waiting_)
        if (!wait.queued && wait.has_input && (!latest || wait.point > latest->point)) latest = &wait;
    if (!latest) return false;
    latest->queued = true;
    ++passed_early_;
    pass_on(*latest, rounds);
    return true;
}

void DelayCostAnalysis::pass_on(const Waiting& wait, replay::WavefrontRounds& rounds) {
    --outstanding_;
    const SyncPoint& point = sync_points_[wait.point];
    const double short_cost = wait.pattern ? static_cast<double>(point.wait) : 0.0;
    const PatternCosts long_cost = long_costs(wait.point);
    const IntervalProfile& mine = interval_with(wait.point, wait.delayer);
    auto& out = rounds.to(wait.delayer);
    if (wait.kind == Waiting::Kind::DelayerDivides) {
        // The delayer divides: it knows its own interval.
        write_record(out, for_partner(wait.point),
                     cost_records::CostsToDivide<const SparseProfile&>{*wait.pattern, short_cost, long_cost,
                                                                       mine.processing});
        ++outstanding_;  // its answer
        return;
    }
    const auto input = inputs_.find(wait.point);
    const DelayerInterval delayer = std::move(input->second);
    inputs_.erase(input);
    Excess excess = excess_over(delayer.processing, mine.processing);
    const CostScales scales = cost_scales(excess.total, delayer.waiting, short_cost, long_cost);
    cost_records::CostDivision division{scales.explained, long_cost,         short_cost,
                                        scales.short_term, scales.long_term, std::move(excess.by_entry)};
    if (wait.kind == Waiting::Kind::LateReceiver) {
        classify(wait.point, WaitPattern::LateReceiver, point.wait, scales.short_term * delayer.waiting);
        write_record(out, for_partner(wait.point), cost_records::LateReceiverAnswer{std::move(division)});
    } else {
        write_record(out, for_partner(wait.point), cost_records::CollectiveAnswer{std::move(division)});
    }
}

// ---- the delaying rank's side ------------------------------------------

void DelayCostAnalysis::expect_costs(std::size_t point, int peer) {
    sync_points_.for_each_inside(sync_points_.span(point, sync_points_.partner(point, peer)), [&](std::size_t q) {
        if (sync_points_[q].wait > 0) ++shares_due_[q];
    });
    ++outstanding_;
}

void DelayCostAnalysis::settle_costs(std::size_t point, int peer) {
    sync_points_.for_each_inside(sync_points_.span(point, sync_points_.partner(point, peer)), [&](std::size_t q) {
        if (sync_points_[q].wait <= 0 || shares_due_[q] == 0) return;
        if (--shares_due_[q] == 0 && waiting_at_[q] != kNoWaiting) became_ready(q);
    });
    --outstanding_;
}

void DelayCostAnalysis::divide_costs(std::size_t point, int from, replay::PayloadReader& in,
                                     replay::WavefrontRounds& rounds) {
    const auto costs = cost_records::CostsToDivide<>::read(in);
    const IntervalProfile& mine = interval_with(point, from);
    const Excess excess = excess_over(mine.processing, costs.waiter);
    const CostScales scales = cost_scales(excess.total, mine.waiting, costs.short_cost, costs.long_cost);
    if (scales.explained)
        charge(point, costs.pattern, mine, excess.by_entry, scales, true);
    else
        charge_unexplained(point, costs.pattern, costs.short_cost, costs.long_cost);
    write_record(rounds.to(from), for_partner(point),
                 cost_records::IndirectAnswer{scales.short_term * mine.waiting});
    settle_costs(point, from);
}

void DelayCostAnalysis::settle_division(std::size_t point, int from, std::optional<CostPattern> pattern,
                                        const cost_records::CostDivision& division, bool point_to_point) {
    if (division.explained) {
        const IntervalProfile& mine = interval_with(point, from);
        if (division.excess.size() != mine.processing.paths.size())
            throw Error(trace_->anchor_path, "a delay-cost division does not match the delayer's profile");
        charge(point, pattern, mine, division.excess, division.scales(), point_to_point);
    } else {
        charge_unexplained(point, pattern, division.short_cost, division.long_cost);
    }
    settle_costs(point, from);
}

void DelayCostAnalysis::late_receiver_answer(std::size_t point, int from, replay::PayloadReader& in) {
    const auto answer = cost_records::LateReceiverAnswer::read(in);
    if (!answer.division) {  // the sender recorded no wait
        settle_costs(point, from);
        return;
    }
    settle_division(point, from, CostPattern::LateReceiver, *answer.division, true);
}

void DelayCostAnalysis::collective_answer(std::size_t point, int from, replay::PayloadReader& in) {
    const std::optional<CollectiveOp> op = collective_op(point);
    const std::optional<CostPattern> pattern = op ? collective_pattern(*op) : std::nullopt;
    const cost_records::CostDivision division = cost_records::CollectiveAnswer::read(in).division;
    // An operation without delay costs passes on idleness only (collect_items).
    if (!pattern && division.short_cost != 0)
        throw Error(trace_->anchor_path, "collective delay costs for an operation without them");
    settle_division(point, from, pattern, division, false);
}

void DelayCostAnalysis::charge(std::size_t point, std::optional<CostPattern> pattern, const IntervalProfile& delayer,
                               const std::vector<double>& excess, const CostScales& scales, bool point_to_point) {
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    const std::uint32_t thread = sync_points_[point].thread;
    for (std::size_t i = 0; i < delayer.processing.paths.size(); ++i) {
        if (excess[i] <= 0) continue;
        const CallPathId cnode = delayer.processing.paths[i];
        // A worker's interval that went on on its master: the master's
        // part of the excess is the master's delay.
        const double on_master =
            delayer.master_part.empty() ? 0.0 : delayer.master_part[i] / delayer.processing.values[i];
        const auto add = [&](Metric metric, double ticks) {
            if (on_master > 0) book(0, metric, cnode, seconds(on_master * ticks));
            if (on_master < 1) book(thread, metric, cnode, seconds((1 - on_master) * ticks));
        };
        if (pattern) add(delay_metrics(*pattern).short_term, scales.short_term * excess[i]);
        for (std::size_t p = 0; p < kCostKinds; ++p)
            if (scales.long_term[p] != 0) add(long_term_metric(p), scales.long_term[p] * excess[i]);
    }
    for (const auto& [position, waiting] : delayer.waits) {
        PatternCosts& costs = long_costs_[position];
        for (std::size_t p = 0; p < kCostKinds; ++p) costs[p] += scales.long_term[p] * waiting;
        if (pattern) costs[static_cast<std::size_t>(*pattern)] += scales.short_term * waiting;
        // The part of that wait that made this one: at most all of it, and
        // of several such parts the largest.
        if (point_to_point)
            propagating_[position] = std::max(propagating_[position], std::min(scales.short_term, 1.0) * waiting);
    }
}

void DelayCostAnalysis::charge_unexplained(std::size_t point, std::optional<CostPattern> pattern, double short_cost,
                                           const PatternCosts& long_cost) {
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    const SyncPoint& at = sync_points_[point];
    // The call of the point's own event; a message paired outside the
    // replay has none in the store: the call holding it; a collective
    // measured outside the replay: its call.
    const CallPathId cnode = at.event != trace::kNoEvent ? EventView(*trace_, at.event).cnode()
                             : at.paired >= 0 ? trace_->threads.paired[static_cast<std::size_t>(at.paired)].cnode
                                              : at.cnode;
    if (pattern && short_cost > 0) book(at.thread, delay_metrics(*pattern).short_term, cnode, seconds(short_cost));
    for (std::size_t p = 0; p < kCostKinds; ++p)
        if (long_cost[p] > 0) book(at.thread, long_term_metric(p), cnode, seconds(long_cost[p]));
}

void DelayCostAnalysis::classify(std::size_t point, WaitPattern pattern, Ticks waiting, double indirect) {
    const SyncPoint& at = sync_points_[point];
    const EventIndex event = at.event;
    const PointToPointMetrics& split = *pattern_info(pattern).point_to_point;
    const double total = static_cast<double>(waiting);
    const double propagated = std::min(propagating_[point], total);
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    // Where the waiting was claimed: the call of the point (a receive's
    // blocking probe, where the wait was there), or for a receive polled
    // for each polling call and the completing call, in proportion.
    const auto add = [&](CallPathId cnode, double share) {
        book(at.thread, split.indirect, cnode, seconds(share * indirect));
        book(at.thread, split.direct, cnode, seconds(share * (total - indirect)));
        book(at.thread, split.propagating, cnode, seconds(share * propagated));
        book(at.thread, split.terminal, cnode, seconds(share * (total - propagated)));
    };
    if (at.paired >= 0) {
        const auto i = static_cast<std::size_t>(at.paired);
        if (total > 0)
            paired_waits_[i].for_each_part(trace_->threads.paired[i].cnode, [&](CallPathId cnode, Ticks ticks) {
                add(cnode, static_cast<double>(ticks) / total);
            });
        return;
    }
    const auto polled = facts_->polled_wait_ends().find(event);
    if (pattern == WaitPattern::LateSender && polled != facts_->polled_wait_ends().end() && total > 0 &&
        trace_->probing_call(trace_->events[event]) == trace::kNoEvent) {
        polling_.for_each_part(event, polled->second, waiting,
                               [&](CallPathId cnode, Ticks ticks) { add(cnode, static_cast<double>(ticks) / total); });
        return;
    }
    add(sync_points_[point].cnode, 1.0);
}

}  // namespace hindsight::analyses
