#include "analyses/graph/activity_graph.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <span>
#include <string>

#include "analyses/event_gaps.hpp"
#include "analyses/patterns.hpp"
#include "common/time_category.hpp"
#include "common/error.hpp"
#include "replay/chain_marking.hpp"
#include "replay/exchange_records.hpp"

namespace hindsight::analyses {

using trace::EventIndex;
using trace::EventKind;
using trace::EventView;

namespace {

constexpr double kNone = std::numeric_limits<double>::max();

}  // namespace

void ActivityGraph::begin_pass(const trace::LocalTrace& trace) {
    trace_ = &trace;
    *findings_ = {};
    scenarios_.clear();
    scenarios_.emplace_back().label = "as recorded";
    for (const WhatIf& w : options_->what_ifs) {
        const CallPathId root = find_call_path(trace, w.call_path);
        if (root == kNoCallPath) throw Error(trace.anchor_path, "--what-if: no call path " + w.call_path);
        Scenario& sc = scenarios_.emplace_back();
        sc.label = w.text;
        sc.scope = what_if_scope(trace, root, w.own_time_only);
        sc.rank = w.rank;
        sc.balance = w.balance;
        sc.scale = w.scale;
        sc.root = root;
    }
    user_scenarios_ = scenarios_.size();

    // The bounds of the path, the collectives by communicator.
    collectives_.assign(trace.definitions.communicators.size(), {});
    ordinal_.assign(collectives_.size(), 0);
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        if (trace.events[i].kind != EventKind::CollectiveEnd) continue;
        const trace::Collective& coll = trace.collective(trace.events[i]);
        if (coll.comm < collectives_.size()) collectives_[coll.comm].push_back(i);
        if (!trace.definitions.is_world(coll.comm)) continue;
        if (first_world_collective_ == trace::kNoEvent) first_world_collective_ = i;
        last_world_collective_ = i;
    }
    if (first_world_collective_ != trace::kNoEvent) {
        first_world_enter_ = trace.collective(trace.events[first_world_collective_]).call_enter;
        last_world_enter_ = trace.collective(trace.events[last_world_collective_]).call_enter;
    }

    // The rank's waits, cut out of its activities; the posting calls of the
    // receives a sender waited for.
    waits_.clear();
    at_posting_.clear();
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const EventKind kind = trace.events[i].kind;
        if (kind != EventKind::Send && kind != EventKind::Recv && kind != EventKind::CollectiveEnd) continue;
        const Ticks waiting = waiting_at(i);
        if (waiting > 0) {
            const Ticks from = EventView(trace, i).wait_start();
            waits_.emplace_back(from, from + waiting);
        }
        if (kind == EventKind::Recv && facts_->late_receivers_caused().contains(i)) {
            const EventIndex posting = trace.posting_call(trace.events[i]);
            if (posting != trace::kNoEvent) at_posting_.emplace_back(posting, Lengths{});
        }
    }
    std::sort(waits_.begin(), waits_.end());
    std::sort(at_posting_.begin(), at_posting_.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    hops_.assign(scenarios_.size(), {});
    pending_.clear();
    active_ = done_ = factors_ready_ = false;
    now_.assign(scenarios_.size(), 0.0);
}

Ticks ActivityGraph::collective_begin(EventIndex k) const { return EventView(*trace_, k).collective_wait_start(); }

// The wait the backward replay's critical path hands on at this event: a
// wait with a known cause.
// A Late Receiver whose receive was posted by an MPI_Irecv is the
// exception: the receiver learns of it only where the receive completes,
// possibly after synchronizing with the sender again (the sender would wait
// for its answer at the end of the send, the receiver for the sender at a
// later barrier), so the send's wait stays the send's own time.
Ticks ActivityGraph::waiting_at(EventIndex k) const {
    const trace::Event& e = trace_->events[k];
    if (e.kind == EventKind::CollectiveEnd && trace_->collective(e).nonblocking) return 0;
    if (e.kind == EventKind::Recv &&
        (trace_->probing_call(e) != trace::kNoEvent || trace_->polling_call(e) != trace::kNoEvent))
        return 0;
    const WaitState* wait = facts_->wait_states().find(k);
    if (!wait || wait->waiting <= 0 || wait->cause < 0) return 0;
    if (wait->pattern == WaitPattern::LateReceiver && facts_->late_receivers_posted_apart().contains(k)) return 0;
    return wait->waiting;
}

Ticks ActivityGraph::unwaited(Ticks from, Ticks to) const {
    if (to <= from) return 0;
    Ticks span = to - from;
    auto it = std::lower_bound(waits_.begin(), waits_.end(), std::pair<Ticks, Ticks>{from, from});
    if (it != waits_.begin()) --it;
    for (; it != waits_.end() && it->first < to; ++it)
        span -= std::max<Ticks>(0, std::min(to, it->second) - std::max(from, it->first));
    return std::max<Ticks>(0, span);
}

double ActivityGraph::factor(std::size_t s, EventIndex k, CallPathId c) const {
    const Scenario& sc = scenarios_[s];
    if (sc.scope.empty() || c == kNoCallPath || !sc.scope[c]) return 1.0;
    if (sc.rank >= 0 && sc.rank != trace_->rank) return 1.0;
    if (!sc.balance) return sc.scale;
    if (!factors_ready_) return 1.0;
    // The visit of the root this activity belongs to: the last one entered.
    const auto it = std::upper_bound(sc.visit_enters.begin(), sc.visit_enters.end(), k);
    if (it == sc.visit_enters.begin()) return 1.0;
    return sc.visit_factors[static_cast<std::size_t>(it - sc.visit_enters.begin() - 1)];
}

// Every event passes here first: the activity since the last event is
// added, in each scenario with its factor.
void ActivityGraph::advance(const EventView& view) {
    const EventIndex k = view.index();
    if (!active_) {
        if (k != first_world_enter_) return;
        active_ = true;
        now_.assign(scenarios_.size(), static_cast<double>(view.time()));
        last_ = k;
        return;
    }
    if (done_) return;
    const Ticks from = trace_->events[last_].time;
    const auto span = static_cast<double>(unwaited(from, view.time()));
    if (span > 0) {
        const CallPathId c = call_path_after(*trace_, last_);
        for (std::size_t s = 0; s < now_.size(); ++s) now_[s] += factor(s, last_, c) * span;
    }
    last_ = k;
    if (k == last_world_enter_) {
        at_end_ = now_;
        done_ = true;
    }
}

ActivityGraph::Lengths ActivityGraph::after_wait(EventIndex call_enter, Ticks wait_end, Ticks event_time) const {
    const auto span = static_cast<double>(unwaited(wait_end, event_time));
    const CallPathId c = trace_->events[call_enter].cnode;
    Lengths after(scenarios_.size());
    for (std::size_t s = 0; s < after.size(); ++s) after[s] = factor(s, call_enter, c) * span;
    return after;
}

void ActivityGraph::join(const Lengths& remote, const Lengths& after, const Hop& hop, const std::vector<int>& owners) {
    const std::size_t n = std::min(remote.size(), now_.size());
    for (std::size_t s = 0; s < n; ++s) {
        if (remote[s] == kNone || !(remote[s] + after[s] > now_[s])) continue;
        now_[s] = remote[s] + after[s];
        Hop h = hop;
        if (!owners.empty()) h.to = owners[s];
        hops_[s].push_back(h);
    }
}

void ActivityGraph::on_enter(const EventView& view) {
    advance(view);
    if (!active_ || done_) return;
    at_enter_ = now_;
    enter_index_ = view.index();
    const auto it = std::lower_bound(at_posting_.begin(), at_posting_.end(), view.index(),
                                     [](const auto& p, EventIndex k) { return p.first < k; });
    if (it != at_posting_.end() && it->first == view.index()) it->second = now_;
}

void ActivityGraph::on_leave(const EventView& view) {
    advance(view);
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
        if (it->leave != view.index()) continue;
        if (active_ && !done_) join(it->remote, it->after, it->hop, {});
        pending_.erase(it);
        break;
    }
}

// A send passes on the length at its call's entry, where a late receive
// would have waited from, and that Enter's index.
void ActivityGraph::pack(const EventView& view, replay::PayloadWriter& out) {
    advance(view);
    const bool known = active_ && !done_ && enter_index_ == view.enter_index();
    out.put<std::uint32_t>(static_cast<std::uint32_t>(scenarios_.size()));
    for (std::size_t s = 0; s < scenarios_.size(); ++s) out.put<double>(known ? at_enter_[s] : kNone);
    out.put<std::uint32_t>(view.enter_index());
}

void ActivityGraph::unpack(const EventView& view, replay::PayloadReader& in) {
    advance(view);
    Lengths remote(in.get<std::uint32_t>());
    for (double& v : remote) v = in.get<double>();
    const EventIndex send_enter = in.get<std::uint32_t>();
    if (!active_ || done_) return;
    // The receive waited from its call's entry until the send began.
    const trace::Message& m = view.message();
    const Ticks wait_end = view.enter().time + waiting_at(view.index());
    const Hop hop{view.index(), view.enter_index(), wait_end,
                  trace_->definitions.world_ranks(m.comm).empty()
                      ? m.partner
                      : trace_->definitions.world_ranks(m.comm)[static_cast<std::size_t>(m.partner)],
                  -1, send_enter};
    join(remote, after_wait(view.enter_index(), wait_end, view.time()), hop, {});
}

// A send that waited for its receive (Late Receiver) asks the receiver for
// the length at the entry of the call that posted the receive.
bool ActivityGraph::needs_reply(const EventView& view) const {
    if (view.kind() != EventKind::Send || waiting_at(view.index()) <= 0) return false;
    return facts_->wait_states().find(view.index())->pattern == WaitPattern::LateReceiver;
}

void ActivityGraph::pack_reply(const EventView& view, replay::PayloadWriter& out) {
    const EventIndex posting = trace_->posting_call(view.event());
    const auto it = std::lower_bound(at_posting_.begin(), at_posting_.end(), posting,
                                     [](const auto& p, EventIndex k) { return p.first < k; });
    const bool known = it != at_posting_.end() && it->first == posting && !it->second.empty();
    out.put<std::uint32_t>(static_cast<std::uint32_t>(scenarios_.size()));
    // Lengths kept before the suggestions were added have the recorded
    // run's value for them.
    for (std::size_t s = 0; s < scenarios_.size(); ++s)
        out.put<double>(!known ? kNone : s < it->second.size() ? it->second[s] : it->second[0]);
    out.put<std::uint32_t>(posting);
}

void ActivityGraph::unpack_reply(const EventView& view, replay::PayloadReader& in) {
    Pending p;
    p.remote.resize(in.get<std::uint32_t>());
    for (double& v : p.remote) v = in.get<double>();
    const EventIndex posting = in.get<std::uint32_t>();
    const trace::Message& m = view.message();
    const Ticks wait_end = view.enter().time + waiting_at(view.index());
    p.leave = view.leave_index();
    p.after = after_wait(view.enter_index(), wait_end, view.leave().time);
    p.hop = {p.leave, view.enter_index(), wait_end,
             trace_->definitions.world_ranks(m.comm).empty()
                 ? m.partner
                 : trace_->definitions.world_ranks(m.comm)[static_cast<std::size_t>(m.partner)],
             -1, posting};
    pending_.push_back(std::move(p));
}

replay::CollectiveTask ActivityGraph::on_collective(const EventView& view, replay::CollectiveChannel& exchange) {
    advance(view);
    const CommId comm = view.collective().comm;
    if (active_ && !done_ && exchange.size() > 1) co_await synchronize(view, exchange);
    if (comm < ordinal_.size()) ++ordinal_[comm];
    if (view.index() == first_world_collective_) co_await choose_scenarios(exchange);
}

// The members' lengths at their begins of the operation, combined as the
// row of its shape says (GraphEdges); a rank takes them where it
// synchronized in the recorded run (or where they could not have made it
// wait then).
replay::CollectiveTask ActivityGraph::synchronize(const EventView& view, replay::CollectiveChannel& exchange) {
    const GraphEdges edges = shape_info(collective_shape(view.collective().op)).graph_edges;
    if (edges == GraphEdges::None || view.collective().nonblocking) co_return;
    const std::size_t n = scenarios_.size();
    const Ticks begin = collective_begin(view.index());
    const Ticks wait_end = begin + waiting_at(view.index());
    const Lengths after = after_wait(view.enter_index(), wait_end, view.time());
    // The length at this rank's begin: the wait is cut out, so it is the
    // length now minus the time after the wait.
    Lengths remote(n);
    for (std::size_t s = 0; s < n; ++s) remote[s] = now_[s] - after[s];
    std::vector<int> owners(n, -1);
    bool takes = true;
    const int root = view.collective().root;
    switch (edges) {
    case GraphEdges::None:
        co_return;
    case GraphEdges::FromRoot:
        if (root < 0 || root >= exchange.size()) co_return;
        co_await exchange.broadcast_fixed(remote, root);
        std::fill(owners.begin(), owners.end(), exchange.world_rank(root));
        takes = exchange.rank() != root;
        break;
    case GraphEdges::Prefix:
        for (std::size_t s = 0; s < n; ++s) {
            const replay::RankedValue last = co_await exchange.scan_maxloc(remote[s]);
            remote[s] = last.value;
            owners[s] = exchange.world_rank(last.rank);
        }
        break;
    case GraphEdges::FromSources:
        co_await take_from_sources(view, exchange, remote, owners);
        break;
    case GraphEdges::AllToAll:
    case GraphEdges::ToRoot: {
        if (edges == GraphEdges::ToRoot && (root < 0 || root >= exchange.size())) co_return;
        const Lengths own = remote;
        co_await exchange.allreduce(remote, replay::ReduceOp::Max);
        std::vector<double> who(n);
        for (std::size_t s = 0; s < n; ++s) who[s] = own[s] == remote[s] ? exchange.rank() : kNone;
        co_await exchange.allreduce(who, replay::ReduceOp::Min);
        for (std::size_t s = 0; s < n; ++s)
            owners[s] = who[s] < exchange.size() ? exchange.world_rank(static_cast<int>(who[s])) : -1;
        takes = edges != GraphEdges::ToRoot || exchange.rank() == root;
        break;
    }
    }
    // In the recorded run the rank waited for the others, or their begins
    // came no later than its own: otherwise the operation did not hold it
    // back (it left before the last member began).
    const bool synchronized = facts_->wait_states().find(view.index()) != nullptr ||
                              remote[0] <= static_cast<double>(begin);
    if (!takes || !synchronized) co_return;
    const CommId comm = view.collective().comm;
    const Hop hop{view.index(), view.enter_index(), wait_end, -1, static_cast<std::int64_t>(comm),
                  comm < ordinal_.size() ? ordinal_[comm] : 0};
    join(remote, after, hop, owners);
}

// Every member's lengths go to every member (so that all members take part
// alike, whether the trace lists their sources or not); each takes, by
// scenario, the longest of its sources' (of all members' where the trace
// does not list them), or none where it received from nobody else.
replay::CollectiveTask ActivityGraph::take_from_sources(const EventView& view, replay::CollectiveChannel& exchange,
                                                        Lengths& remote, std::vector<int>& owners) {
    const std::size_t n = remote.size();
    const auto members = static_cast<std::size_t>(exchange.size());
    const auto self = static_cast<std::size_t>(exchange.rank());
    std::vector<double> lengths(members * n, std::numeric_limits<double>::lowest());
    std::copy(remote.begin(), remote.end(), lengths.begin() + static_cast<std::ptrdiff_t>(self * n));
    co_await exchange.allreduce(lengths, replay::ReduceOp::Max);
    const trace::Collective& coll = view.collective();
    std::vector<int> everyone;
    std::span<const int> sources;
    if (coll.sources != trace::Collective::kNoSources) {
        sources = trace_->sources(coll);
    } else {
        everyone.resize(members);
        std::iota(everyone.begin(), everyone.end(), 0);
        sources = everyone;
    }
    for (std::size_t s = 0; s < n; ++s) {
        remote[s] = kNone;
        for (const int source : sources) {
            const auto m = static_cast<std::size_t>(source);
            if (m == self || m >= members) continue;
            const double length = lengths[m * n + s];
            if (remote[s] == kNone || length > remote[s]) {
                remote[s] = length;
                owners[s] = exchange.world_rank(source);
            }
        }
    }
}

// At the first collective on MPI_COMM_WORLD: the call paths whose own time
// is most imbalanced over the ranks become suggestions, and every balance
// scenario learns the average time of its call path.
replay::CollectiveTask ActivityGraph::choose_scenarios(replay::CollectiveChannel& exchange) {
    const trace::LocalTrace& trace = *trace_;
    const std::size_t paths = trace.call_tree.size();
    if (options_->suggestions > 0) {
        // Own time by call path: sum and maximum over ranks; and the
        // critical-path imbalance, in ticks.
        std::vector<double> sums(2 * paths, 0.0), max(paths, 0.0);
        for (EventIndex k = 0; k + 1 < trace.events.size(); ++k) {
            const CallPathId c = call_path_after(trace, k);
            if (c != kNoCallPath) max[c] += static_cast<double>(trace.events[k + 1].time - trace.events[k].time);
        }
        const auto ticks_per_second = static_cast<double>(trace.definitions.clock.ticks_per_second);
        for (std::size_t c = 0; c < paths; ++c) {
            sums[c] = max[c];
            sums[paths + c] = c < imbalance_.size() ? imbalance_[c] * ticks_per_second : 0.0;
        }
        co_await exchange.allreduce(sums, replay::ReduceOp::Sum);
        co_await exchange.allreduce(max, replay::ReduceOp::Max);
        // The candidates: computation whose time differs most between
        // ranks, at one moment (critical-path imbalance) or over the run.
        std::vector<std::pair<double, CallPathId>> excess;
        for (CallPathId c = 0; c < paths; ++c) {
            const Region& region = trace.region_of(c);
            if (is_mpi_region(region) || time_category(region) != Metric::Comp) continue;
            const double gap = std::max(max[c] - sums[c] / static_cast<double>(exchange.size()), sums[paths + c]);
            if (gap > 0) excess.emplace_back(gap, c);
        }
        std::sort(excess.begin(), excess.end(), [](const auto& a, const auto& b) {
            return a.first > b.first || (a.first == b.first && a.second < b.second);
        });
        for (std::size_t i = 0; i < excess.size() && i < options_->candidates; ++i) {
            const CallPathId c = excess[i].second;
            Scenario& sc = scenarios_.emplace_back();
            sc.label = "balance " + trace::call_path_text(trace, c);
            sc.scope = what_if_scope(trace, c, true);
            sc.balance = true;
            sc.root = c;
        }
        // Until here every scenario ran as recorded.
        now_.resize(scenarios_.size(), now_.empty() ? 0.0 : now_[0]);
        at_enter_.resize(scenarios_.size(), at_enter_.empty() ? 0.0 : at_enter_[0]);
        hops_.resize(scenarios_.size(), hops_.empty() ? std::vector<Hop>{} : hops_[0]);
    }
    // Balance: each rank's time in the call path and whether it ran it.
    std::vector<std::size_t> balanced;
    for (std::size_t s = 0; s < scenarios_.size(); ++s)
        if (scenarios_[s].balance) balanced.push_back(s);
    if (!balanced.empty()) {
        std::vector<double> totals(2 * balanced.size(), 0.0);
        for (std::size_t i = 0; i < balanced.size(); ++i) {
            record_visits(scenarios_[balanced[i]]);
            const auto& f = scenarios_[balanced[i]].visit_factors;  // visit times so far
            totals[2 * i] = std::accumulate(f.begin(), f.end(), 0.0);
            totals[2 * i + 1] = f.empty() ? 0.0 : 1.0;
        }
        co_await exchange.allreduce(totals, replay::ReduceOp::Sum);
        for (std::size_t i = 0; i < balanced.size(); ++i) {
            Scenario& sc = scenarios_[balanced[i]];
            const double average = totals[2 * i + 1] > 0 ? totals[2 * i] / totals[2 * i + 1] : 0.0;
            if (average > 0 && !sc.visit_factors.empty()) balance_visits(sc, average);
            else std::fill(sc.visit_factors.begin(), sc.visit_factors.end(), 1.0);  // nothing to balance
        }
    }
    factors_ready_ = true;
}

// Each visit of the root on this rank, with its time (without waits) in
// visit_factors until balance_visits() turns them into factors.
void ActivityGraph::record_visits(Scenario& sc) const {
    const trace::LocalTrace& trace = *trace_;
    sc.visit_enters.clear();
    sc.visit_factors.clear();
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const trace::Event& e = trace.events[i];
        if (e.kind != EventKind::Enter || e.cnode != sc.root) continue;
        double time = 0;
        for (EventIndex k = i; k < e.ref; ++k) {
            const CallPathId c = call_path_after(trace, k);
            if (c != kNoCallPath && sc.scope[c])
                time += static_cast<double>(unwaited(trace.events[k].time, trace.events[k + 1].time));
        }
        sc.visit_enters.push_back(i);
        sc.visit_factors.push_back(time);
    }
}

// The rank's visits share the average time evenly: each visit's factor is
// its share over its recorded time.
void ActivityGraph::balance_visits(Scenario& sc, double average) {
    const double per_visit = average / static_cast<double>(sc.visit_factors.size());
    for (double& f : sc.visit_factors) f = f > 0 ? per_visit / f : 1.0;
}

void ActivityGraph::add_stretch(std::size_t s, EventIndex lo, Ticks from, EventIndex hi, Ticks to,
                                std::vector<double>& profile) const {
    const trace::LocalTrace& trace = *trace_;
    for (EventIndex k = lo; k < hi && k + 1 < trace.events.size(); ++k) {
        const Ticks a = std::max(from, trace.events[k].time);
        const Ticks b = std::min(to, trace.events[k + 1].time);
        if (b <= a) continue;
        const CallPathId c = call_path_after(trace, k);
        if (c == kNoCallPath) continue;
        profile[c] += factor(s, k, c) * static_cast<double>(unwaited(a, b));
    }
}

namespace {

// A hop's awaited vertex, asked of (or told to) the rank that holds it.
struct PathVertex {
    std::uint32_t scenario = 0;
    std::int32_t comm = -1;  // the collective's communicator; -1: point to point
    std::uint64_t key = 0;   // the event, or the collective's ordinal on comm
};

// Where the path arrives on this rank: at `vertex`, whose time on the path
// is `moment`.
struct Arrival {
    EventIndex vertex = trace::kNoEvent;
    Ticks moment = 0;
};

}  // namespace

std::uint32_t ActivityGraph::node_before(const std::vector<std::uint32_t>& base, std::size_t s,
                                         EventIndex vertex) const {
    const auto& hops = hops_[s];
    const auto it =
        std::lower_bound(hops.begin(), hops.end(), vertex, [](const Hop& h, EventIndex k) { return h.at < k; });
    // The start at base[s], hop j at base[s] + 1 + j.
    return base[s] + static_cast<std::uint32_t>(it - hops.begin());
}

EventIndex ActivityGraph::vertex_of(std::int64_t comm, std::uint64_t key) const {
    const trace::LocalTrace& trace = *trace_;
    if (comm < 0) {
        if (key >= trace.events.size())
            throw Error(trace.anchor_path, "the activity graph's path leads to event " + std::to_string(key) +
                                               " of rank " + std::to_string(trace.rank) + ", which it does not have");
        return static_cast<EventIndex>(key);
    }
    // The hop holds the collective's 0-based ordinal on the communicator
    // (on_collective() counts after synchronize()).
    const auto c = static_cast<std::size_t>(comm);
    if (c >= collectives_.size() || key >= collectives_[c].size())
        throw Error(trace.anchor_path, "the activity graph's path leads to collective " + std::to_string(key) +
                                           " of communicator " + std::to_string(comm) + ", which rank " +
                                           std::to_string(trace.rank) + " does not have");
    return collectives_[c][static_cast<std::size_t>(key)];
}

// The path's end: the latest entry into the last collective on
// MPI_COMM_WORLD (the lowest rank of equals). From there the chain of hops
// runs back to the start; each rank then adds up its own stretches of the
// marked path, and sums over the ranks give the path's profile.
void ActivityGraph::follow_path(replay::Exchange& exchange) {
    if (last_world_collective_ == trace::kNoEvent) return;
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t rounds_before = exchange.rounds();
    const trace::LocalTrace& trace = *trace_;
    const std::string& where = trace.anchor_path;
    const std::size_t n = scenarios_.size();
    const std::size_t paths = trace.call_tree.size();
    const int me = exchange.rank();
    const auto ranks = static_cast<std::size_t>(exchange.size());

    // Every rank's lengths at the end, to every rank.
    Lengths end = at_end_;
    end.resize(n, 0.0);
    const auto ends = replay::exchange_records(exchange, replay::RecordLists<double>(ranks, end), where);
    std::vector<int> holder(n, -1);
    for (std::size_t r = 0; r < ranks; ++r) {
        if (ends[r].size() != n) throw Error(where, "rank " + std::to_string(r) + " has another number of scenarios");
        for (std::size_t s = 0; s < n; ++s)
            if (holder[s] < 0 || ends[r][s] > end[s]) {
                end[s] = ends[r][s];
                holder[s] = static_cast<int>(r);
            }
    }

    // The chain: each hop's successor, from the rank it leads to.
    std::vector<std::uint32_t> base(n);
    std::size_t nodes = 0;
    for (std::size_t s = 0; s < n; ++s) {
        base[s] = static_cast<std::uint32_t>(nodes);
        nodes += 1 + hops_[s].size();
    }
    const auto leads_to = [&](const Hop& hop) { return hop.to >= 0 && static_cast<std::size_t>(hop.to) < ranks; };
    const auto for_each_hop = [&](auto&& visit) {
        for (std::size_t s = 0; s < n; ++s)
            for (std::size_t j = 0; j < hops_[s].size(); ++j)
                if (leads_to(hops_[s][j]))
                    visit(s, base[s] + 1 + static_cast<std::uint32_t>(j), hops_[s][j],
                          PathVertex{static_cast<std::uint32_t>(s), static_cast<std::int32_t>(hops_[s][j].comm),
                                     hops_[s][j].key});
    };
    replay::RecordLists<PathVertex> asked(ranks);
    for_each_hop([&](std::size_t, std::uint32_t, const Hop& hop, const PathVertex& v) {
        asked[static_cast<std::size_t>(hop.to)].push_back(v);
    });
    const auto answers = replay::ask_ranks<replay::ChainLink>(
        exchange, asked,
        [&](int, const PathVertex& v) {
            if (v.scenario >= n) throw Error(where, "the activity graph's path names an unknown scenario");
            return replay::chain_link(me, node_before(base, v.scenario, vertex_of(v.comm, v.key)));
        },
        where);
    std::vector<replay::ChainLink> successors(nodes, replay::kChainEnd);  // the starts end the chain
    std::vector<std::size_t> taken(ranks, 0);
    for_each_hop([&](std::size_t, std::uint32_t node, const Hop& hop, const PathVertex&) {
        const auto to = static_cast<std::size_t>(hop.to);
        successors[node] = answers[to][taken[to]++];
    });
    std::vector<replay::ChainLink> firsts;
    for (std::size_t s = 0; s < n; ++s)
        if (holder[s] == me) firsts.push_back(replay::chain_link(me, node_before(base, s, last_world_enter_)));
    replay::ChainMarks marks;
    try {
        marks = replay::mark_chains(exchange, successors, firsts, where);
    } catch (const Error& e) {
        throw Error(e.file(), "the activity graph's path: " + e.problem());
    }

    // Each hop on the path tells the awaited rank where the path arrives.
    replay::RecordLists<PathVertex> told(ranks);
    for_each_hop([&](std::size_t, std::uint32_t node, const Hop& hop, const PathVertex& v) {
        if (marks.marked[node]) told[static_cast<std::size_t>(hop.to)].push_back(v);
    });
    std::vector<std::vector<Arrival>> arrivals(n);
    for (std::size_t s = 0; s < n; ++s)
        if (holder[s] == me)
            arrivals[s].push_back({last_world_enter_, last_world_enter_ == trace::kNoEvent ? 0 : trace.events[last_world_enter_].time});
    for (const auto& from : replay::exchange_records(exchange, told, where))
        for (const PathVertex& v : from) {
            const EventIndex vertex = vertex_of(v.comm, v.key);
            arrivals[v.scenario].push_back({vertex, v.comm < 0 ? trace.events[vertex].time : collective_begin(vertex)});
        }

    // This rank's stretches, in the order the path passes them: latest first.
    std::vector<double> origin(n, 0.0);
    std::vector<double> profile(n * paths, 0.0);
    for (std::size_t s = 0; s < n; ++s) {
        std::stable_sort(arrivals[s].begin(), arrivals[s].end(),
                         [](const Arrival& a, const Arrival& b) { return a.vertex > b.vertex; });
        std::span<double> mine(profile.data() + s * paths, paths);
        for (const Arrival& a : arrivals[s]) {
            std::vector<double> stretch(paths, 0.0);
            const std::uint32_t node = node_before(base, s, a.vertex);
            if (node == base[s]) {
                add_stretch(s, first_world_enter_, trace.events[first_world_enter_].time, a.vertex, a.moment, stretch);
                origin[s] = static_cast<double>(trace.events[first_world_enter_].time);
            } else {
                const Hop& hop = hops_[s][node - base[s] - 1];
                add_stretch(s, hop.call_enter, hop.wait_end, a.vertex, a.moment, stretch);
            }
            for (std::size_t c = 0; c < paths; ++c) mine[c] += stretch[c];
        }
    }
    exchange.sum(origin);  // one rank holds each scenario's start
    exchange.sum(profile);
    report_path(end, origin, profile);

    // This rank's memory for the graph: lengths, hops, waits, collectives.
    std::uint64_t bytes = (4 + 2 * n) * n * sizeof(double) + profile.size() * sizeof(double) +
                          waits_.size() * sizeof(waits_[0]);
    for (const auto& h : hops_) bytes += h.size() * sizeof(Hop);
    for (const auto& list : collectives_) bytes += list.size() * sizeof(EventIndex);
    for (const auto& p : at_posting_) bytes += sizeof(p) + p.second.size() * sizeof(double);
    GraphFindings& f = *findings_;
    f.max_state_bytes = static_cast<std::uint64_t>(exchange.max_loc(static_cast<double>(bytes)).value);
    f.hops = marks.nodes - n * ranks;  // the starts are no hops
    f.walk_rounds = exchange.rounds() - rounds_before;
    f.walk_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

// The findings, the same on every rank.
void ActivityGraph::report_path(const std::vector<double>& end, const std::vector<double>& origin,
                                const std::vector<double>& profile) {
    const trace::LocalTrace& trace = *trace_;
    const std::size_t n = scenarios_.size();
    const std::size_t paths = trace.call_tree.size();
    GraphFindings& f = *findings_;
    f.computed = true;
    auto seconds = [&](double ticks) { return ticks_to_seconds(trace, ticks); };
    std::vector<GraphScenario> results(n);
    for (std::size_t s = 0; s < n; ++s) {
        results[s].label = scenarios_[s].label;
        results[s].length_seconds = seconds(end[s] - origin[s]);
        for (CallPathId c = 0; c < paths; ++c)
            if (profile[s * paths + c] > 0) results[s].path.emplace_back(c, seconds(profile[s * paths + c]));
        std::sort(results[s].path.begin(), results[s].path.end(), [](const auto& a, const auto& b) {
            return a.second > b.second || (a.second == b.second && a.first < b.first);
        });
    }
    f.recorded_profile.assign(paths, 0.0);
    for (CallPathId c = 0; c < paths; ++c) f.recorded_profile[c] = seconds(profile[c]);
    f.recorded = results[0];
    f.what_ifs.assign(results.begin() + 1, results.begin() + static_cast<std::ptrdiff_t>(user_scenarios_));
    std::vector<GraphScenario> suggestions(results.begin() + static_cast<std::ptrdiff_t>(user_scenarios_), results.end());
    std::stable_sort(suggestions.begin(), suggestions.end(),
                     [](const GraphScenario& a, const GraphScenario& b) { return a.length_seconds < b.length_seconds; });
    for (const GraphScenario& g : suggestions)
        if (f.suggestions.size() < options_->suggestions && g.length_seconds < f.recorded.length_seconds)
            f.suggestions.push_back(g);
}

}  // namespace hindsight::analyses
