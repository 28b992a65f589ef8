#include "analyses/delay_costs.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "analyses/event_gaps.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using trace::CollectiveOp;
using trace::EventIndex;
using trace::EventView;

namespace {

// The pattern of a collective operation's wait states, by the operation,
// which all members share, so that they all take part in the same
// exchanges; none for the operations whose waits have no delay costs.
std::optional<CostPattern> collective_pattern(CollectiveOp op) {
    const std::optional<DelayMetrics>& delay = pattern_info(collective_wait_pattern(op)).delay;
    return delay ? std::optional<CostPattern>(delay->pattern) : std::nullopt;
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

PatternCosts get_costs(replay::PayloadReader& in) {
    PatternCosts costs{};
    for (double& c : costs) c = in.get<double>();
    return costs;
}

void put_costs(replay::PayloadWriter& out, const PatternCosts& costs) {
    for (const double c : costs) out.put<double>(c);
}

// A collective's data travels as doubles (exact for call-path ids and
// operation ids, which stay below 2^53).
class DoubleWriter {
public:
    void put(double v) { data_.push_back(v); }
    void put_profile(const SparseProfile& p) {
        put(static_cast<double>(p.paths.size()));
        for (const CallPathId c : p.paths) put(static_cast<double>(c));
        data_.insert(data_.end(), p.values.begin(), p.values.end());
    }
    std::vector<double>& data() { return data_; }

private:
    std::vector<double> data_;
};

class DoubleReader {
public:
    DoubleReader(const std::vector<double>& data, const std::string& origin) : data_(&data), origin_(&origin) {}
    double get() {
        if (next_ >= data_->size()) throw Error(*origin_, "delay-cost broadcast is truncated");
        return (*data_)[next_++];
    }
    std::size_t count() {
        const double n = get();
        if (!(n >= 0) || n > static_cast<double>(data_->size())) throw Error(*origin_, "delay-cost broadcast is malformed");
        return static_cast<std::size_t>(n);
    }
    SparseProfile get_profile() {
        SparseProfile p;
        const std::size_t n = count();
        for (std::size_t i = 0; i < n; ++i) p.paths.push_back(static_cast<CallPathId>(get()));
        for (std::size_t i = 0; i < n; ++i) p.values.push_back(get());
        return p;
    }

private:
    const std::vector<double>* data_;
    const std::string* origin_;
    std::size_t next_ = 0;
};

}  // namespace

void DelayCostAnalysis::begin_pass(const trace::LocalTrace& trace, replay::Direction direction) {
    if (direction != replay::Direction::Backward)
        throw Error(trace.anchor_path, "the delay analysis needs a backward replay");
    trace_ = &trace;
    sync_points_ = SyncPointList(trace, *points_);
    scanner_ = IntervalScanner(trace, sync_points_);
    long_costs_.clear();
    held_intervals_.clear();
    members_.assign(trace.definitions.communicators.size(), {});
    propagating_.clear();
}

const WaitState* DelayCostAnalysis::own_wait(const EventView& view, WaitPattern pattern) const {
    const WaitState* wait = points_->wait_states.find(view.index());
    return wait && wait->pattern == pattern && has_delay_costs(*wait) ? wait : nullptr;
}

bool DelayCostAnalysis::caused_late_receiver(const EventView& view) const {
    const auto it = points_->late_receivers_caused.find(view.index());
    return it != points_->late_receivers_caused.end() && it->second > 0;
}

const std::vector<int>& DelayCostAnalysis::members(CommId comm) {
    if (comm >= members_.size()) members_.resize(std::size_t{comm} + 1);
    if (members_[comm].empty()) members_[comm] = trace_->definitions.world_ranks(comm);
    return members_[comm];
}

int DelayCostAnalysis::peer_world_rank(const EventView& view) {
    const trace::Message& msg = view.message();
    const std::vector<int>& members = this->members(msg.comm);
    return msg.partner >= 0 && static_cast<std::size_t>(msg.partner) < members.size()
               ? members[static_cast<std::size_t>(msg.partner)]
               : msg.partner;
}

PatternCosts DelayCostAnalysis::long_costs(EventIndex index) const {
    const auto it = long_costs_.find(index);
    return it == long_costs_.end() ? PatternCosts{} : it->second;
}

double DelayCostAnalysis::propagating(EventIndex index) const {
    const auto it = propagating_.find(index);
    return it == propagating_.end() ? 0.0 : it->second;
}

IntervalProfile DelayCostAnalysis::interval_with(const EventView& view, int peer) {
    const std::size_t at = sync_points_.position(view.index());
    if (at == SyncPointList::kNone)
        throw Error(trace_->anchor_path, "a wait state's partner event is no synchronization point");
    return scanner_.interval(sync_points_.previous(at, peer), at);
}

void DelayCostAnalysis::charge(CostPattern pattern, const IntervalProfile& delayer, const std::vector<double>& excess,
                               const CostScales& scales, bool point_to_point) {
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    for (std::size_t i = 0; i < delayer.processing.paths.size(); ++i) {
        if (excess[i] <= 0) continue;
        const CallPathId cnode = delayer.processing.paths[i];
        cube_->add(delay_metrics(pattern).short_term, cnode, seconds(scales.short_term * excess[i]));
        for (std::size_t p = 0; p < kCostPatterns; ++p)
            if (scales.long_term[p] != 0)
                cube_->add(delay_metrics(static_cast<CostPattern>(p)).long_term, cnode, seconds(scales.long_term[p] * excess[i]));
    }
    for (const auto& [index, waiting] : delayer.waits) {
        PatternCosts& costs = long_costs_[index];
        for (std::size_t p = 0; p < kCostPatterns; ++p) costs[p] += scales.long_term[p] * waiting;
        costs[static_cast<std::size_t>(pattern)] += scales.short_term * waiting;
        // The part of that wait that made this one: at most all of it, and
        // of several such parts the largest.
        if (point_to_point)
            propagating_[index] = std::max(propagating(index), std::min(scales.short_term, 1.0) * waiting);
    }
}

void DelayCostAnalysis::charge_unexplained(const EventView& view, CostPattern pattern, double short_cost,
                                           const PatternCosts& long_cost) {
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    if (short_cost > 0) cube_->add(delay_metrics(pattern).short_term, view.cnode(), seconds(short_cost));
    for (std::size_t p = 0; p < kCostPatterns; ++p)
        if (long_cost[p] > 0) cube_->add(delay_metrics(static_cast<CostPattern>(p)).long_term, view.cnode(), seconds(long_cost[p]));
}

void DelayCostAnalysis::classify(const EventView& view, WaitPattern pattern, Ticks waiting, double indirect) {
    const bool late_sender = pattern == WaitPattern::LateSender;
    const double total = static_cast<double>(waiting);
    const double propagated = std::min(propagating(view.index()), total);
    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    const CallPathId cnode = view.cnode();
    cube_->add(late_sender ? Metric::MpiWaitIndirectLatesender : Metric::MpiWaitIndirectLatereceiver, cnode,
               seconds(indirect));
    cube_->add(late_sender ? Metric::MpiWaitDirectLatesender : Metric::MpiWaitDirectLatereceiver, cnode,
               seconds(total - indirect));
    cube_->add(late_sender ? Metric::MpiWaitPropagatingLs : Metric::MpiWaitPropagatingLr, cnode, seconds(propagated));
    cube_->add(late_sender ? Metric::MpiWaitTerminalLs : Metric::MpiWaitTerminalLr, cnode, seconds(total - propagated));
}

// Backward, the receiver packs. A Late Sender receiver sends its costs and
// profile to the sender; a receiver that kept its sender waiting (Late
// Receiver) sends its profile for the sender to compute the shares.
void DelayCostAnalysis::pack(const EventView& view, replay::PayloadWriter& out) {
    if (view.kind() != trace::EventKind::Recv) return;
    reply_kind_ = Kind::None;
    if (const WaitState* wait = own_wait(view, WaitPattern::LateSender)) {
        const IntervalProfile mine = interval_with(view, peer_world_rank(view));
        out.put(Kind::LateSender);
        out.put<double>(static_cast<double>(wait->waiting));
        put_costs(out, long_costs(view.index()));
        put_profile(out, mine.processing);
    } else if (caused_late_receiver(view)) {
        const IntervalProfile& mine = held_intervals_[view.index()] = interval_with(view, peer_world_rank(view));
        out.put(Kind::LateReceiver);
        out.put<double>(mine.waiting);
        put_profile(out, mine.processing);
    }
    // Otherwise nothing: the sender gets an empty payload part.
}

void DelayCostAnalysis::unpack(const EventView& view, replay::PayloadReader& in) {
    if (view.kind() != trace::EventKind::Send) return;
    reply_kind_ = Kind::None;
    if (in.empty()) return;
    switch (in.get<Kind>()) {
    case Kind::None: break;
    case Kind::LateSender: {
        const double short_cost = in.get<double>();
        const PatternCosts long_cost = get_costs(in);
        const SparseProfile waiter = get_profile(in);
        const IntervalProfile mine = interval_with(view, peer_world_rank(view));
        const Excess excess = excess_over(mine.processing, waiter);
        const CostScales scales = cost_scales(excess.total, mine.waiting, short_cost, long_cost);
        if (scales.explained)
            charge(CostPattern::LateSender, mine, excess.by_entry, scales, true);
        else
            charge_unexplained(view, CostPattern::LateSender, short_cost, long_cost);
        reply_kind_ = Kind::LateSender;
        reply_indirect_ = scales.short_term * mine.waiting;
        break;
    }
    case Kind::LateReceiver: {
        const double delayer_waiting = in.get<double>();
        const SparseProfile delayer = get_profile(in);
        const WaitState* wait = own_wait(view, WaitPattern::LateReceiver);
        if (!wait) break;  // the receiver saw a wait this rank did not record
        const IntervalProfile mine = interval_with(view, peer_world_rank(view));
        const Excess excess = excess_over(delayer, mine.processing);
        const auto short_cost = static_cast<double>(wait->waiting);
        const PatternCosts long_cost = long_costs(view.index());
        const CostScales scales = cost_scales(excess.total, delayer_waiting, short_cost, long_cost);
        classify(view, WaitPattern::LateReceiver, wait->waiting, scales.short_term * delayer_waiting);
        // [explained, γ_short, γ_long by pattern, s·γ_short, s·γ_long by pattern, Δ...]
        reply_.assign({scales.explained ? 1.0 : 0.0, short_cost});
        reply_.insert(reply_.end(), long_cost.begin(), long_cost.end());
        reply_.push_back(scales.short_term);
        reply_.insert(reply_.end(), scales.long_term.begin(), scales.long_term.end());
        reply_.insert(reply_.end(), excess.by_entry.begin(), excess.by_entry.end());
        reply_kind_ = Kind::LateReceiver;
        break;
    }
    default: throw Error(trace_->anchor_path, "delay-cost payload of an unknown kind");
    }
}

bool DelayCostAnalysis::carries_data(const EventView& view) const {
    return reply_need(view) != replay::ReplyNeed::None;
}

replay::ReplyNeed DelayCostAnalysis::reply_need(const EventView& view) const {
    if (view.kind() != trace::EventKind::Recv) return replay::ReplyNeed::None;
    // As in pack(): a Late Sender wait takes precedence. Its classification
    // reads how much of this wait propagated, final once the pass is here
    // (only later wait states add to it, and the pass has met them all).
    if (own_wait(view, WaitPattern::LateSender)) return replay::ReplyNeed::AtPassEnd;
    return caused_late_receiver(view) ? replay::ReplyNeed::AtBoundary : replay::ReplyNeed::None;
}

void DelayCostAnalysis::pack_reply(const EventView&, replay::PayloadWriter& out) {
    out.put(reply_kind_);
    if (reply_kind_ == Kind::LateSender) out.put<double>(reply_indirect_);
    if (reply_kind_ == Kind::LateReceiver) out.put_span<double>(reply_);
    reply_kind_ = Kind::None;
}

void DelayCostAnalysis::unpack_reply(const EventView& view, replay::PayloadReader& in) {
    const Kind kind = in.get<Kind>();
    if (kind == Kind::LateReceiver) {
        const auto held = held_intervals_.find(view.index());
        if (held == held_intervals_.end()) throw Error(trace_->anchor_path, "a delay-cost reply nobody asked for");
        const IntervalProfile mine = std::move(held->second);
        held_intervals_.erase(held);
        const std::vector<double> reply = in.get_vector<double>();
        constexpr std::size_t kHead = 3 + 2 * kCostPatterns;
        if (reply.size() != kHead + mine.processing.paths.size())
            throw Error(trace_->anchor_path, "delay-cost reply does not match the receiver's profile");
        PatternCosts long_cost{};
        CostScales scales;
        scales.explained = reply[0] != 0;
        std::copy_n(reply.begin() + 2, kCostPatterns, long_cost.begin());
        scales.short_term = reply[2 + kCostPatterns];
        std::copy_n(reply.begin() + 3 + kCostPatterns, kCostPatterns, scales.long_term.begin());
        const std::vector<double> excess(reply.begin() + kHead, reply.end());
        if (scales.explained)
            charge(CostPattern::LateReceiver, mine, excess, scales, true);
        else
            charge_unexplained(view, CostPattern::LateReceiver, reply[1], long_cost);
        return;
    }
    const double indirect = kind == Kind::LateSender ? in.get<double>() : 0.0;
    if (const WaitState* wait = own_wait(view, WaitPattern::LateSender))
        classify(view, WaitPattern::LateSender, wait->waiting, indirect);
}

// Before the pass: only a rank that waited here contributes (see
// collective()); where nobody did, the exchange is spared.
bool DelayCostAnalysis::exchanges_at(const EventView& view) const {
    if (!collective_pattern(view.collective().op)) return false;
    const WaitState* wait = points_->wait_states.find(view.index());
    return wait && has_delay_costs(*wait);
}

replay::CollectiveTask DelayCostAnalysis::on_collective(const EventView& view,
                                                        replay::CollectiveChannel& exchange) {
    if (exchange.size() <= 1 || !exchange.active()) co_return;
    const auto pattern = collective_pattern(view.collective().op);
    if (!pattern) co_return;
    co_await collective(view, exchange, *pattern);
}

// The delayer's interval at the collective at synchronization point
// `here`, in pieces: one begins at each point where its interval with some
// member begins. Returns them as the broadcast ships them.
std::vector<double> DelayCostAnalysis::delayer_pieces(std::size_t here, const std::vector<int>& members,
                                                      std::vector<Piece>& pieces) {
    if (here == SyncPointList::kNone)
        throw Error(trace_->anchor_path, "the rank a collective waited for has no synchronization point there");
    std::vector<std::size_t> starts;
    for (const int member : members)
        if (member != trace_->rank) starts.push_back(sync_points_.previous(here, member));
    // kNone (the start of the trace) sorts last as the largest size_t: put
    // it first.
    std::sort(starts.begin(), starts.end(), [](std::size_t a, std::size_t b) {
        return (a == SyncPointList::kNone ? 0 : a + 1) < (b == SyncPointList::kNone ? 0 : b + 1);
    });
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    DoubleWriter out;
    out.put(static_cast<double>(starts.size()));
    pieces.clear();
    for (std::size_t k = 0; k < starts.size(); ++k) {
        const bool last = k + 1 == starts.size();
        Piece piece;
        if (starts[k] != SyncPointList::kNone) {
            piece.begins_at = sync_points_[starts[k]].operation;
            piece.first_call = sync_points_[starts[k]].cnode;
            piece.pruned = static_cast<double>(sync_points_[starts[k]].prune);
        }
        piece.raw = scanner_.raw(starts[k], last ? here : starts[k + 1], !last);
        out.put(static_cast<double>(piece.begins_at));
        out.put(piece.first_call == kNoCallPath ? -1.0 : static_cast<double>(piece.first_call));
        out.put(piece.pruned);
        out.put(piece.raw.total_waiting);
        out.put_profile(piece.raw.time);
        out.put_profile(piece.raw.waiting);
        pieces.push_back(std::move(piece));
    }
    return std::move(out.data());
}

// Three steps of logarithmic depth: find the delayer (if anyone waited),
// broadcast its interval, sum the waiting ranks' shares onto it.
replay::CollectiveTask DelayCostAnalysis::collective(const EventView& view, replay::CollectiveChannel& exchange,
                                                     CostPattern pattern) {
    const WaitState* wait = points_->wait_states.find(view.index());
    const bool waited = wait && has_delay_costs(*wait);
    const std::vector<int>& members = this->members(view.collective().comm);
    const std::size_t here = sync_points_.position(view.index());
    // The rank everyone waited for knows it from the forward pass (its own
    // synchronization point names itself as the cause): it cuts its
    // interval into pieces now and announces their size with the search for
    // the delayer, so that the broadcast below needs no size of its own.
    std::vector<Piece> pieces;
    std::vector<double> shipped;
    if (wait && wait->cause == exchange.rank()) shipped = delayer_pieces(here, members, pieces);
    // [delayer, longest wait, size of the delayer's pieces (0: unknown)]
    std::array<double, 3> who{waited ? wait->cause : -1.0, waited ? static_cast<double>(wait->waiting) : 0.0,
                              static_cast<double>(shipped.size())};
    co_await exchange.allreduce(who, replay::ReduceOp::Max);
    if (who[0] < 0 || who[1] <= 0) co_return;
    const int delayer_rank = static_cast<int>(who[0]);
    const bool delaying = exchange.rank() == delayer_rank;
    if (static_cast<std::size_t>(delayer_rank) >= members.size())
        throw Error(trace_->anchor_path, "a collective wait names a cause outside its communicator");
    if (who[2] > 0) {
        if (delaying && static_cast<double>(shipped.size()) != who[2])
            throw Error(trace_->anchor_path, "two ranks claim to have delayed the same collective");
        shipped.resize(static_cast<std::size_t>(who[2]));
        co_await exchange.broadcast_fixed(shipped, delayer_rank);
    } else {
        if (delaying) shipped = delayer_pieces(here, members, pieces);
        co_await exchange.broadcast(shipped, delayer_rank);
    }
    if (!delaying) {
        DoubleReader in(shipped, trace_->anchor_path);
        const std::size_t n = in.count();
        for (std::size_t k = 0; k < n; ++k) {
            Piece piece;
            piece.begins_at = static_cast<OperationId>(in.get());
            const double first = in.get();
            piece.first_call = first < 0 ? kNoCallPath : static_cast<CallPathId>(first);
            piece.pruned = in.get();
            piece.raw.total_waiting = in.get();
            piece.raw.time = in.get_profile();
            piece.raw.waiting = in.get_profile();
            pieces.push_back(std::move(piece));
        }
    }
    if (pieces.empty()) throw Error(trace_->anchor_path, "delay-cost broadcast holds no interval");

    // Every call path of the delayer's interval, in the same order on every
    // member: the reduction's layout.
    SparseProfile all_paths;
    for (const Piece& piece : pieces) add_profile(all_paths, piece.raw.time);
    const std::size_t n = all_paths.paths.size();
    const std::size_t pieces_at = (1 + kCostPatterns) * n;
    const std::size_t unexplained_at = pieces_at + (1 + kCostPatterns) * pieces.size();
    // [short-term by path, long-term by pattern and path, scales by piece
    // (short-term, long-term by pattern), unexplained short- and long-term]
    std::vector<double> sums(unexplained_at + 1 + kCostPatterns, 0.0);

    if (waited && !delaying) {
        // The delayer's interval with this rank begins at the same operation
        // as this rank's interval with the delayer.
        const std::size_t mine_from = sync_points_.previous(here, members[static_cast<std::size_t>(delayer_rank)]);
        const OperationId begins_at = mine_from == SyncPointList::kNone ? 0 : sync_points_[mine_from].operation;
        std::size_t first = 0;
        for (std::size_t k = 0; k < pieces.size(); ++k)
            if (pieces[k].begins_at == begins_at) first = k;
        RawInterval theirs = pieces[first].raw;
        for (std::size_t k = first + 1; k < pieces.size(); ++k) append_interval(theirs, pieces[k].raw);
        const IntervalProfile delayer = profile_of(theirs, pieces[first].first_call, pieces[first].pruned);
        const IntervalProfile mine = scanner_.interval(mine_from, here);
        const Excess excess = excess_over(delayer.processing, mine.processing);
        const auto short_cost = static_cast<double>(wait->waiting);
        const PatternCosts long_cost = long_costs(view.index());
        const CostScales scales = cost_scales(excess.total, delayer.waiting, short_cost, long_cost);
        if (scales.explained) {
            for (std::size_t i = 0; i < delayer.processing.paths.size(); ++i) {
                const auto at = static_cast<std::size_t>(
                    std::lower_bound(all_paths.paths.begin(), all_paths.paths.end(), delayer.processing.paths[i]) -
                    all_paths.paths.begin());
                sums[at] += scales.short_term * excess.by_entry[i];
                for (std::size_t p = 0; p < kCostPatterns; ++p)
                    sums[(1 + p) * n + at] += scales.long_term[p] * excess.by_entry[i];
            }
            sums[pieces_at + (1 + kCostPatterns) * first] += scales.short_term;
            for (std::size_t p = 0; p < kCostPatterns; ++p)
                sums[pieces_at + (1 + kCostPatterns) * first + 1 + p] += scales.long_term[p];
        } else {
            sums[unexplained_at] += short_cost;
            for (std::size_t p = 0; p < kCostPatterns; ++p) sums[unexplained_at + 1 + p] += long_cost[p];
        }
    }
    co_await exchange.reduce_sum(sums, delayer_rank);
    if (!delaying) co_return;

    const auto seconds = [&](double ticks) { return ticks_to_seconds(*trace_, ticks); };
    for (std::size_t i = 0; i < n; ++i) {
        const CallPathId cnode = all_paths.paths[i];
        if (sums[i] != 0) cube_->add(delay_metrics(pattern).short_term, cnode, seconds(sums[i]));
        for (std::size_t p = 0; p < kCostPatterns; ++p)
            if (sums[(1 + p) * n + i] != 0)
                cube_->add(delay_metrics(static_cast<CostPattern>(p)).long_term, cnode, seconds(sums[(1 + p) * n + i]));
    }
    // A wait state in a piece lies inside the interval of every member whose
    // interval begins with that piece or before.
    std::array<double, 1 + kCostPatterns> factor{};
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        for (std::size_t f = 0; f < factor.size(); ++f) factor[f] += sums[pieces_at + (1 + kCostPatterns) * k + f];
        for (const auto& [index, waiting] : pieces[k].raw.waits) {
            PatternCosts& costs = long_costs_[index];
            costs[static_cast<std::size_t>(pattern)] += factor[0] * waiting;
            for (std::size_t p = 0; p < kCostPatterns; ++p) costs[p] += factor[1 + p] * waiting;
        }
    }
    PatternCosts unexplained_long{};
    std::copy_n(sums.begin() + static_cast<std::ptrdiff_t>(unexplained_at) + 1, kCostPatterns, unexplained_long.begin());
    charge_unexplained(view, pattern, sums[unexplained_at], unexplained_long);
}

}  // namespace hindsight::analyses
