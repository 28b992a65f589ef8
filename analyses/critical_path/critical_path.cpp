#include "analyses/critical_path/critical_path.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "analyses/event_gaps.hpp"
#include "analyses/critical_path/inclusive_values.hpp"
#include "analyses/thread_profile.hpp"
#include "analyses/polling_calls.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using trace::EventIndex;
using trace::EventKind;
using trace::EventView;

namespace {

// The first call before a receive's own call in which it may have waited:
// the blocking probe that found its message, or the first polling call
// that tested for it; kNoEvent when it waited in its own call only.
EventIndex earlier_waiting_call(const trace::LocalTrace& trace, const trace::Event& recv) {
    const EventIndex probe = trace.probing_call(recv);
    return probe != trace::kNoEvent ? probe : trace.polling_call(recv);
}

}  // namespace

void CriticalPathAnalysis::begin(const trace::LocalTrace& trace) {
    trace_ = &trace;
    last_world_collective_ = first_world_collective_ = trace::kNoEvent;
    token_ = {};
    before_ = 0;
    hand_offs_ = 0;
    segments_.clear();
    counts_ = {};
    const std::size_t paths = trace.call_tree.size();
    on_path_.assign(paths, 0.0);
    activity_.assign(paths, 0.0);
    detours_.clear();
    worker_on_path_.assign(threads(), {});
    worker_activity_.assign(threads(), {});
    if (!workers_.empty()) {
        if (trace.threads.size() != threads())
            throw Error(trace.anchor_path, "rank " + std::to_string(trace.rank) + " has " +
                                               std::to_string(trace.threads.size()) + " threads but " +
                                               std::to_string(threads()) + " thread cubes");
        teams_ = find_thread_teams(trace);
        thread_detours_ = ThreadDetours(trace, teams_);
        for (std::size_t t = 1; t < threads(); ++t) {
            worker_on_path_[t].assign(paths, 0.0);
            worker_activity_[t] = worker_activity(trace, teams_, t);
        }
    }

    // The first and the last collective on MPI_COMM_WORLD bound the path.
    // Every rank takes part in both, so all ranks agree on them.
    // The collective table is in trace order and far shorter than the
    // events; their CollectiveEnd events lie near the trace's ends (MPI_Init,
    // MPI_Finalize), where short searches find them.
    std::vector<signed char> is_world(trace.definitions.communicators.size(), -1);
    const auto on_world = [&](const trace::Collective& c) {
        if (c.comm >= is_world.size()) return false;
        if (is_world[c.comm] < 0) is_world[c.comm] = trace.definitions.is_world(c.comm) ? 1 : 0;
        return is_world[c.comm] == 1;
    };
    const auto& collectives = trace.collectives;
    const auto first = std::find_if(collectives.begin(), collectives.end(), on_world);
    if (first == collectives.end()) return;
    const auto last = std::find_if(collectives.rbegin(), collectives.rend(), on_world);
    const auto first_ref = static_cast<std::uint32_t>(first - collectives.begin());
    const auto last_ref = static_cast<std::uint32_t>(collectives.rend() - last - 1);
    const auto is_end_of = [&](EventIndex i, std::uint32_t ref) {
        return trace.events[i].kind == EventKind::CollectiveEnd && trace.events[i].ref == ref;
    };
    for (EventIndex i = 0; i < trace.events.size() && first_world_collective_ == trace::kNoEvent; ++i)
        if (is_end_of(i, first_ref)) first_world_collective_ = i;
    for (EventIndex i = static_cast<EventIndex>(trace.events.size());
         i-- > 0 && last_world_collective_ == trace::kNoEvent;)
        if (is_end_of(i, last_ref)) last_world_collective_ = i;
    if (last_world_collective_ == trace::kNoEvent || first_world_collective_ == trace::kNoEvent)
        throw Error(trace.anchor_path, "a collective operation of the trace has no event");
    for (const ThreadDetour& detour : thread_detours_.detours())
        if (detour.point > first_world_collective_ && detour.point < last_world_collective_ &&
            detour.back > first_world_collective_)
            detours_.push_back(detour);
}

void CriticalPathAnalysis::count_activity() {
    // The sums are exact: integral ticks below 2^53. A master's parallel
    // region lasts from its fork to its join, as its profile books it.
    std::vector<Ticks> exclusive(exclusive_.begin(), exclusive_.end());
    if (!workers_.empty()) move_master_team_edges(*trace_, teams_, exclusive);
    for (std::size_t c = 0; c < activity_.size() && c < exclusive.size(); ++c)
        activity_[c] = static_cast<double>(exclusive[c]);
    if (!workers_.empty()) {
        std::vector<double> waits(activity_.size(), 0.0);
        add_master_barrier_waits(teams_, waits);
        for (std::size_t c = 0; c < activity_.size(); ++c) activity_[c] -= waits[c];
    }
    const PollingCalls polling(*trace_);
    facts_->wait_states().for_each_full_state([&](EventIndex event, const WaitState& wait) {
        if (!is_synchronization_wait(wait)) return;
        // A receive's wait in a probe is the probe's; one polled for is
        // split as the wait states claimed it, over the polling calls and
        // the completing call.
        const trace::Event& e = trace_->events[event];
        const EventIndex earlier = e.kind == EventKind::Recv && wait.pattern == WaitPattern::LateSender
                                       ? earlier_waiting_call(*trace_, e)
                                       : trace::kNoEvent;
        const auto polled = facts_->polled_wait_ends().find(event);
        if (earlier != trace::kNoEvent && polled != facts_->polled_wait_ends().end()) {
            polling.for_each_part(event, polled->second, wait.waiting, [&](CallPathId cnode, Ticks ticks) {
                activity_[cnode] -= static_cast<double>(ticks);
            });
            return;
        }
        activity_[earlier != trace::kNoEvent ? trace_->events[earlier].cnode : e.cnode] -=
            static_cast<double>(wait.waiting);
    });
    for (const RmaWait& wait : rma_waits_)
        activity_[trace_->events[wait.call].cnode] -= static_cast<double>(wait.waiting);
    for (double& ticks : activity_) ticks = std::max(ticks, 0.0);
}

void CriticalPathAnalysis::run(const trace::LocalTrace& trace, const ForwardFacts& facts,
                               replay::Exchange& exchange) {
    facts_ = &facts;
    begin(trace);
    // Every rank takes part in the collectives on MPI_COMM_WORLD; should one
    // not, all must learn it here rather than wait for it in the rounds.
    std::array<double, 1> anchored{last_world_collective_ == trace::kNoEvent ? 0.0 : 1.0};
    exchange.sum(anchored);
    if (anchored[0] == 0) return;
    if (anchored[0] < exchange.size())
        throw Error(trace_->anchor_path, "only " + std::to_string(static_cast<int>(anchored[0])) + " of " +
                                             std::to_string(exchange.size()) +
                                             " ranks have a collective on MPI_COMM_WORLD to anchor the critical path");
    CriticalPathHandOffs path(*trace_, *slots_, *facts_, rma_waits_, first_world_collective_, last_world_collective_,
                              detours_, workers_.empty() ? nullptr : &thread_detours_);
    path.find(exchange);
    counts_ = path.counts();
    for (const ThreadStretch& stretch : path.worker_stretches())
        thread_detours_.add_time(stretch, worker_on_path_[stretch.thread]);
    count_activity();
    walk(path);
    if (!workers_.empty()) move_team_edges();
    if (hand_offs_ != counts_.on_path_here)
        throw Error(trace_->anchor_path, "rank " + std::to_string(trace_->rank) + " handed the critical path on " +
                                             std::to_string(hand_offs_) + " times, but its path has " +
                                             std::to_string(counts_.on_path_here) + " hand-offs");
    combine(exchange);
}

inline void CriticalPathAnalysis::accumulate(CallPathId cnode, Ticks from, Ticks to) {
    if (to > from && cnode != kNoCallPath) on_path_[cnode] += static_cast<double>(to - from);
}

inline void CriticalPathAnalysis::hold_through(CallPathId after, Ticks time, Ticks& position) {
    accumulate(after, time, position);
    position = std::min(position, time);
}

// The order of the backward replay at each event: replies (a path handed
// back for a Late Receiver) are taken before the Enter they are due at; a
// Late Sender's path arrives at the Send before that Send's own Late
// Receiver wait may hand it back; at a collective the holder gives the path
// away before the member it waited for takes it.
void CriticalPathAnalysis::walk(const CriticalPathHandOffs& path) {
    const trace::LocalTrace& trace = *trace_;
    // The path ends where the last rank entered MPI_Finalize.
    if (path.ends_here()) {
        const EventView end(trace, last_world_collective_);
        take_token({last_world_collective_, std::min(end.enter().time, end.time())});
    }
    // The lists are sorted by event; the walk meets them from the back.
    const std::span<const EventIndex> nodes = path.nodes();
    const std::span<const PathArrival> arrivals = path.arrivals();
    std::size_t node = nodes.size(), arrival = arrivals.size(), detour = detours_.size();
    // Where the current detour over the worker threads gives the path back.
    std::optional<PathArrival> back;
    for (EventIndex i = last_world_collective_; i-- > first_world_collective_;) {
        while (arrival > 0 && arrivals[arrival - 1].at > i) --arrival;
        // Without the token an event changes nothing until the path arrives
        // again: the walk jumps to the next arrival.
        if (!token_.held) {
            const bool arrives = arrival > 0 && arrivals[arrival - 1].at >= first_world_collective_;
            if (!arrives && !back) break;
            i = std::max(arrives ? arrivals[arrival - 1].at : 0, back ? back->at : 0);
        }
        while (node > 0 && nodes[node - 1] > i) --node;
        while (detour > 0 && detours_[detour - 1].point > i) --detour;
        // Down to the next hand-off, arrival or detour the holder only takes
        // the time between the events.
        const EventIndex stop = std::max({first_world_collective_, node > 0 ? nodes[node - 1] : 0,
                                          arrival > 0 ? arrivals[arrival - 1].at : 0,
                                          detour > 0 ? detours_[detour - 1].point : 0, back ? back->at : 0});
        if (i > stop) {
            pass_events(stop, i);
            i = stop + 1;
            continue;
        }
        const bool waits = node > 0 && nodes[node - 1] == i;
        const PathArrival* arriving = arrival > 0 && arrivals[arrival - 1].at == i ? &arrivals[arrival - 1] : nullptr;
        const EventView view(trace, i);
        const CallPathId after = call_path_after(trace, i);
        switch (view.kind()) {
        case EventKind::Enter:
        case EventKind::Leave:
            if (arriving) take_token(*arriving);
            if (back && back->at == i) {
                if (token_.held)
                    throw Error(trace_->anchor_path, "the critical path arrives twice at event " + std::to_string(i) +
                                                         " of rank " + std::to_string(trace_->rank));
                take_token(*back);
                back.reset();
            }
            pass_event(view, after);
            // The Leave of a call that waited in a one-sided epoch.
            if (waits) hand_off(view, path.passes(node - 1), path.wait_end(node - 1));
            if (detour > 0 && detours_[detour - 1].point == i && token_.held)
                back = take_detour(view, detours_[detour - 1]);
            break;
        case EventKind::Recv:
            pass_event(view, after);
            if (waits) hand_off(view, path.passes(node - 1), path.wait_end(node - 1));
            break;
        case EventKind::Send:
            pass_event(view, after);
            if (arriving) take_token(*arriving);
            if (waits) hand_off(view, path.passes(node - 1), path.wait_end(node - 1));
            break;
        case EventKind::CollectiveEnd:
            pass_event(view, after);
            if (waits) hand_off(view, path.passes(node - 1), path.wait_end(node - 1));
            if (arriving) take_token(*arriving);
            break;
        }
    }
    if (back) throw Error(trace_->anchor_path, "rank " + std::to_string(trace_->rank) +
                                                   ": the critical path does not come back from its worker threads");
    finish(EventView(trace, first_world_collective_));
}

PathArrival CriticalPathAnalysis::take_detour(const EventView& view, const ThreadDetour& detour) {
    // pass_event() counted the barrier from its entry; the master keeps the
    // part after the last arrival.
    on_path_[view.cnode()] += static_cast<double>(std::max<Ticks>(0, before_ - detour.until)) -
                              static_cast<double>(std::max<Ticks>(0, before_ - view.time()));
    segments_.emplace_back(detour.until, token_.arrived);
    for (const ThreadStretch& stretch : detour.stretches) thread_detours_.add_time(stretch, worker_on_path_[stretch.thread]);
    token_ = {};
    return {detour.back, detour.position};
}

void CriticalPathAnalysis::pass_events(EventIndex stop, EventIndex from) {
    Ticks position = token_.position;  // in a register through the loop
    for (EventIndex k = from; k > stop; --k) hold_through(call_path_after(*trace_, k), trace_->events[k].time, position);
    token_.position = position;
}

// Every event passes here first: the holder accounts for the gap after it.
void CriticalPathAnalysis::pass_event(const EventView& view, CallPathId after) {
    before_ = token_.position;
    if (token_.held) hold_through(after, view.time(), token_.position);
}

// The holder was in this MPI call from `before_` back to its entry; of that
// it keeps the part after its wait ended and hands the rest of the path to
// the rank it waited for.
void CriticalPathAnalysis::hand_off(const EventView& view, bool on_path, Ticks until) {
    if (!token_.held) return;
    if (!on_path)
        throw Error(trace_->anchor_path, "rank " + std::to_string(trace_->rank) + " holds the critical path at event " +
                                             std::to_string(view.index()) + ", which the path does not pass");
    const EventIndex earlier = view.kind() == EventKind::Recv ? earlier_waiting_call(*trace_, view.event()) : trace::kNoEvent;
    if (earlier != trace::kNoEvent) {
        // The wait was in the blocking probe before the receive call, or in
        // the polling calls before the completing one: the path keeps what
        // lies between, call path by call path, down to the wait's end.
        Ticks position = view.time();
        for (EventIndex k = view.index(); k-- > earlier && position > until;)
            hold_through(call_path_after(*trace_, k), std::max(trace_->events[k].time, until), position);
    } else {
        // pass_event() counted [event, before_] already; a send's event comes
        // before its wait, so that may include waiting time.
        on_path_[view.cnode()] += static_cast<double>(std::max<Ticks>(0, before_ - until)) -
                                  static_cast<double>(std::max<Ticks>(0, before_ - view.time()));
    }
    segments_.emplace_back(until, token_.arrived);
    token_ = {};
    ++hand_offs_;
}

void CriticalPathAnalysis::take_token(const PathArrival& arrival) {
    token_.held = true;
    token_.position = token_.arrived = arrival.position;
}

// At the first collective on MPI_COMM_WORLD: the holder accounts for the
// rest of the path locally. The path begins where the rank holding it
// entered MPI_Init (or the first collective on MPI_COMM_WORLD, in a trace
// without MPI_Init): what a rank did before is outside the measured
// program.
void CriticalPathAnalysis::finish(const EventView& view) {
    const trace::LocalTrace& trace = view.trace();
    const EventIndex first = view.enter_index() == trace::kNoEvent ? 0 : view.enter_index();
    for (EventIndex k = view.index(); k-- > first;) {
        if (!token_.held) break;
        accumulate(call_path_after(trace, k), trace.events[k].time, token_.position);
        token_.position = std::min(token_.position, trace.events[k].time);
    }
    if (token_.held) segments_.emplace_back(trace.events[first].time, token_.arrived);
    std::reverse(segments_.begin(), segments_.end());
}

std::span<const double> CriticalPathAnalysis::on_path(std::size_t thread) const {
    return thread == 0 ? std::span<const double>(on_path_) : std::span<const double>(worker_on_path_[thread]);
}

std::span<const double> CriticalPathAnalysis::activity(std::size_t thread) const {
    return thread == 0 ? std::span<const double>(activity_) : std::span<const double>(worker_activity_[thread]);
}

LocalCube& CriticalPathAnalysis::cube(std::size_t thread) const { return thread == 0 ? *cube_ : workers_[thread - 1]; }

void CriticalPathAnalysis::move_team_edges() {
    // segments_ are in time order and do not overlap.
    const auto held = [&](Ticks from, Ticks to) {
        Ticks ticks = 0;
        auto it = std::lower_bound(segments_.begin(), segments_.end(), from,
                                   [](const std::pair<Ticks, Ticks>& s, Ticks t) { return s.second <= t; });
        for (; it != segments_.end() && it->first < to; ++it)
            ticks += std::max<Ticks>(0, std::min(it->second, to) - std::max(it->first, from));
        return static_cast<double>(ticks);
    };
    for (const ParallelRegion& region : teams_.regions) {
        const ThreadPart& master = region.threads.front();
        if (!master.present) continue;
        const CallPathId enclosing = trace_->call_tree.node(master.region).parent;
        if (enclosing == kNoCallPath) continue;
        const double edges = held(region.fork, master.enter) + held(master.leave, region.join);
        on_path_[enclosing] -= edges;
        on_path_[master.region] += edges;
    }
}

// All ranks combine the profiles of all their threads.
void CriticalPathAnalysis::combine(replay::Exchange& exchange) {
    // G(c), every location's time in c on the path, the locations'
    // activities, and how many locations there are.
    const std::size_t paths = on_path_.size();
    std::vector<double> totals(2 * paths + 1, 0.0);
    for (std::size_t t = 0; t < threads(); ++t)
        for (std::size_t c = 0; c < paths; ++c) {
            totals[c] += on_path(t)[c];
            totals[paths + c] += activity(t)[c];
        }
    totals[2 * paths] = static_cast<double>(threads());
    exchange.sum(totals);
    const std::span<const double> path_total(totals.data(), paths);
    const std::span<const double> activity_total(totals.data() + paths, paths);

    // Imbalance costs are computed for each location and summed (Böhme et
    // al., IPDPS 2012, §II-D3): [all, inter-partition] by call path.
    std::vector<double> costs(2 * paths, 0.0);
    for (std::size_t t = 0; t < threads(); ++t) add_imbalance_costs(path_total, activity(t), costs);
    exchange.sum(costs);
    for (std::size_t t = 0; t < threads(); ++t)
        record(t, path_total, activity_total, std::span<const double>(costs.data(), paths),
               std::span<const double>(costs.data() + paths, paths), totals[2 * paths]);
}

// A location's headroom h (the path's length minus its own time) spread
// over the call paths c in proportion to their excess
// δ(c) = max(G(c) − d(c), 0); inter-partition where it never ran c.
void CriticalPathAnalysis::add_imbalance_costs(std::span<const double> path_total, std::span<const double> activity,
                                               std::vector<double>& costs) const {
    const std::size_t paths = path_total.size();
    double length = 0, own_time = 0, excess_sum = 0;
    for (std::size_t c = 0; c < paths; ++c) {
        length += path_total[c];
        own_time += activity[c];
        excess_sum += std::max(path_total[c] - activity[c], 0.0);
    }
    if (!(excess_sum > 0)) return;
    // The headroom is this location's waiting; one busy for longer than the
    // path (in its MPI_Finalize, after the path's end) has none.
    const double scale = std::max(length - own_time, 0.0) / excess_sum;
    for (std::size_t c = 0; c < paths; ++c) {
        const double cost = scale * std::max(path_total[c] - activity[c], 0.0);
        costs[c] += cost;
        if (activity[c] <= 0) costs[paths + c] += cost;
    }
}

void CriticalPathAnalysis::record(std::size_t thread, std::span<const double> path_total,
                                  std::span<const double> activity_total, std::span<const double> impact_total,
                                  std::span<const double> inter_total, double locations) {
    const trace::LocalTrace& trace = *trace_;
    auto seconds = [&](double ticks) { return ticks_to_seconds(trace, ticks); };
    const std::span<const double> mine = on_path(thread), own = activity(thread);
    for (std::size_t c = 0; c < mine.size(); ++c) {
        // Values of the whole call path go to the locations that carried it
        // on the path, in proportion to their share of G(c).
        const double share = path_total[c] > 0 ? mine[c] / path_total[c] : 0.0;
        const double imbalance = std::max(path_total[c] - activity_total[c] / locations, 0.0);
        // A location's activity counts as critical up to the call path's
        // time on the path; the rest it could have spent elsewhere.
        const double critical = std::min(own[c], path_total[c]);
        const double impact = share * impact_total[c];
        const double inter = share * inter_total[c];
        const std::array<MetricValue, 7> values{{
            {Metric::CriticalPath, seconds(mine[c])},
            {Metric::CriticalPathImbalance, seconds(share * imbalance)},
            {Metric::CriticalPathActivities, seconds(critical)},
            {Metric::NonCriticalPathActivities, seconds(own[c] - critical)},
            {Metric::CriticalImbalanceImpact, seconds(impact)},
            {Metric::IntraPartitionImbalance, seconds(impact - inter)},
            {Metric::InterPartitionImbalance, seconds(inter)},
        }};
        add_inclusive(cube(thread), static_cast<CallPathId>(c), values);
    }
}

}  // namespace hindsight::analyses
