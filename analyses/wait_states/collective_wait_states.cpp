#include "analyses/wait_states/collective_wait_states.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "analyses/collective_timing.hpp"
#include "analyses/metric_claims.hpp"
#include "analyses/patterns.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using replay::CollectiveChannel;
using replay::RankedValue;

// Timestamps travel as doubles: exact for tick counts below 2^53.
namespace {

constexpr double kNever = std::numeric_limits<double>::max();
constexpr double kNotSending = std::numeric_limits<double>::lowest();

double as_value(Ticks t) { return static_cast<double>(t); }
Ticks as_ticks(double v) { return static_cast<Ticks>(v); }

// For each member of the window's communicator, the end of this rank's last
// call that issued a transfer to it in the epoch the fence `fence_call`
// ends (since the window's previous fence); -infinity for none.
std::vector<double> last_transfers_to(const trace::LocalTrace& trace, trace::EventIndex fence_call, int members) {
    std::vector<double> last(static_cast<std::size_t>(members), -std::numeric_limits<double>::infinity());
    const auto& fences = trace.rma.fences;
    const auto fence = std::lower_bound(fences.begin(), fences.end(), fence_call,
                                        [](const trace::RmaFence& f, trace::EventIndex c) { return f.call_enter < c; });
    if (fence == fences.end() || fence->call_enter != fence_call) return last;
    trace::EventIndex epoch_start = 0;
    for (auto earlier = fence; earlier != fences.begin();) {
        --earlier;
        if (earlier->window == fence->window) {
            epoch_start = earlier->call_enter;
            break;
        }
    }
    // Transfers are in stream order, so are their calls.
    const auto& transfers = trace.rma.transfers;
    auto t = std::lower_bound(transfers.begin(), transfers.end(), epoch_start,
                              [](const trace::RmaTransfer& x, trace::EventIndex c) { return x.call_enter < c; });
    for (; t != transfers.end() && t->call_enter < fence_call; ++t) {
        if (t->window != fence->window || t->remote >= last.size()) continue;
        const Ticks end = trace.events[trace.events[t->call_enter].ref].time;
        last[t->remote] = std::max(last[t->remote], as_value(end));
    }
    return last;
}

// 1 for each other member this rank issued a transfer to in the epoch
// (`last` from last_transfers_to), 0 for the rest: summed over the
// members, the number of origins that accessed each.
std::vector<double> accessed_members(const std::vector<double>& last, int self) {
    std::vector<double> accessed(last.size(), 0.0);
    for (std::size_t m = 0; m < last.size(); ++m)
        if (static_cast<int>(m) != self && last[m] != -std::numeric_limits<double>::infinity()) accessed[m] = 1.0;
    return accessed;
}

}  // namespace

struct CollectiveWaitStates::Call {
    const trace::EventView& view;
    Ticks enter = 0;    // from when this rank can wait (EventView::collective_wait_start)
    Ticks arrival = 0;  // when its part began, which the others wait for
    Ticks end = 0;      // end of the operation
    bool sends = false;
    bool receives = false;
    int rank = 0;  // in the communicator
    WaitPattern pattern = WaitPattern::None;  // of the operation's shape
    // Whether an end before the awaited entry is a clock-condition
    // violation, as in Scalasca: no rank can end a synchronizing operation
    // before the entry it waits for, unless it may leave early.
    bool checks_clock = true;
};

void CollectiveWaitStates::begin_pass(const trace::LocalTrace& trace) {
    facts_->bind(trace);
}

replay::CollectiveTask CollectiveWaitStates::on_collective(const trace::EventView& view,
                                                           CollectiveChannel& exchange) {
    if (exchange.size() <= 1) co_return;
    const trace::Collective& coll = view.collective();
    const CollectiveShape shape = collective_shape(coll.op);
    // Measured from the operation's begin, as in Scalasca: a rank may spend
    // time in the call before the operation starts (argument checks, ...).
    // A non-blocking operation is awaited in the call that completes it, for
    // the members that started it later.
    const Call call{view,
                    view.collective_wait_start(),
                    view.collective_arrival(),
                    view.time(),
                    coll.bytes_sent > 0,
                    coll.bytes_received > 0,
                    exchange.rank(),
                    shape_info(shape).pattern,
                    !shape_info(shape).may_leave_early};
    switch (shape) {
    case CollectiveShape::Barrier:
    case CollectiveShape::Init:
    case CollectiveShape::Finalize:
    case CollectiveShape::FileIo:
        co_await all_synchronizing(call, exchange);
        break;
    case CollectiveShape::RmaCreate:
    case CollectiveShape::RmaFree:
    case CollectiveShape::RmaFence:
        co_await window_synchronizing(call, exchange);
        break;
    case CollectiveShape::NToN:
        co_await all_to_all(call, exchange);
        break;
    case CollectiveShape::OneToN:
        co_await one_to_all(call, exchange);
        break;
    case CollectiveShape::NToOne:
        co_await all_to_one(call, exchange);
        break;
    case CollectiveShape::Prefix:
        co_await scan(call, exchange);
        break;
    case CollectiveShape::Sparse:
        co_await from_sources(call, exchange);
        break;
    case CollectiveShape::Unresolved:
    case CollectiveShape::Count_:
        break;
    }
}

void CollectiveWaitStates::settle(const Call& call, int cause, Ticks awaited_enter, Ticks first_end) {
    if (call.checks_clock && awaited_enter > call.end) facts_->collective_clock_violation();
    const auto [wait, completion] = collective_timing(call.enter, call.end, awaited_enter, first_end);

    const PatternInfo& pattern = pattern_info(call.pattern);
    // A wait the report does not show (at MPI_Init) is no wait state either:
    // nobody's work delayed the ranks' start.
    const Ticks recorded_wait = pattern.wait ? wait : 0;
    facts_->record_wait(call.view.index(),
                        {call.pattern, recorded_wait, cause, pattern.synchronization_point, completion});
    const CallPathId cnode = call.view.enter().cnode;
    const auto& trace = call.view.trace();
    if (wait > 0 && pattern.wait) {
        claim_time(*cube_, trace, *pattern.wait, cnode, wait);
        facts_->offer_longest_wait({call.pattern, cnode, call.enter, wait});
    }
    if (completion > 0 && pattern.completion) claim_time(*cube_, trace, *pattern.completion, cnode, completion);
}

// Whom a collective synchronized where not every member took part: each
// member that did sets its own bit in one sum (52 bits per double add up
// exactly); the rank that records the synchronization point keeps the
// members as world ranks, sorted (sync_point_list.hpp reads them).
replay::CollectiveTask CollectiveWaitStates::record_group(const Call& call, CollectiveChannel& ex, bool member,
                                                          bool keeps) {
    constexpr int kBits = 52;
    std::vector<double> bits(static_cast<std::size_t>((ex.size() + kBits - 1) / kBits), 0.0);
    if (member) bits[static_cast<std::size_t>(call.rank / kBits)] = std::ldexp(1.0, call.rank % kBits);
    co_await ex.allreduce(bits, replay::ReduceOp::Sum);
    if (!keeps) co_return;
    const std::vector<int> world = call.view.trace().definitions.world_ranks(call.view.collective().comm);
    std::vector<int>& group = facts_->partial_group(call.view.index());
    group.clear();
    for (int r = 0; r < ex.size(); ++r) {
        const auto word = static_cast<std::uint64_t>(bits[static_cast<std::size_t>(r / kBits)]);
        if ((word >> (r % kBits)) & 1u)
            group.push_back(static_cast<std::size_t>(r) < world.size() ? world[static_cast<std::size_t>(r)] : r);
    }
    std::sort(group.begin(), group.end());
}

replay::CollectiveTask CollectiveWaitStates::all_synchronizing(const Call& call, CollectiveChannel& ex) {
    const RankedValue latest = co_await ex.allreduce_maxloc(as_value(call.arrival));
    const RankedValue earliest_end = co_await ex.allreduce_minloc(as_value(call.end));
    settle(call, latest.rank, as_ticks(latest.value), as_ticks(earliest_end.value));
}

// MPI lets a window's collective operations synchronize, but does not make
// them: a fence whose assertions say no epoch ends or begins there may
// return at once. As in Scalasca, the operation synchronized only where
// every member was inside it at one moment; where one left before the last
// entered, nobody waited there, and no clock is wrong.
//
// At a fence each member also learns when the last transfer of the epoch
// to it was issued (the end of the origin's MPI_Put & co.): the part of its
// wait until then is Early Fence, waiting for accesses to its own window,
// as Scalasca measures it.
replay::CollectiveTask CollectiveWaitStates::window_synchronizing(const Call& call, CollectiveChannel& ex) {
    const RankedValue latest = co_await ex.allreduce_maxloc(as_value(call.arrival));
    const RankedValue earliest_end = co_await ex.allreduce_minloc(as_value(call.end));
    const bool synchronized = earliest_end.value > latest.value;
    if (synchronized) settle(call, latest.rank, as_ticks(latest.value), as_ticks(earliest_end.value));
    if (call.view.collective().op != trace::CollectiveOp::RmaFence) co_return;
    const trace::LocalTrace& trace = call.view.trace();
    std::vector<double> last = last_transfers_to(trace, call.view.collective().call_enter, ex.size());
    std::vector<double> origins = accessed_members(last, ex.rank());
    co_await ex.allreduce(last, replay::ReduceOp::Max);
    co_await ex.allreduce(origins, replay::ReduceOp::Sum);
    count_fence_partners(call.view.enter().cnode, ex.size() - 1, origins[static_cast<std::size_t>(ex.rank())]);
    if (!synchronized) co_return;
    const Ticks wait = std::max<Ticks>(0, std::min(as_ticks(latest.value), call.end) - call.enter);
    const double last_transfer = last[static_cast<std::size_t>(ex.rank())];
    if (wait > 0 && last_transfer > as_value(call.enter) && last_transfer <= as_value(call.end)) {
        const Ticks early = std::min(as_ticks(last_transfer) - call.enter, wait);
        claim(*cube_, Metric::MpiRmaWaitAtFence, Metric::MpiRmaEarlyFence, call.view.enter().cnode,
              trace.seconds(early));
    }
}

// A fence synchronizes each member with every other one (Scalasca's
// pairwise one-sided synchronizations); those of them that issued no
// transfer to it in the epoch the fence ends it did not need to wait for.
void CollectiveWaitStates::count_fence_partners(CallPathId cnode, int others, double origins) {
    cube_->add(Metric::MpiRmaPairsyncCount, cnode, static_cast<double>(others));
    claim(*cube_, Metric::MpiRmaPairsyncCount, Metric::MpiRmaPairsyncUnneededCount, cnode,
          std::max(0.0, others - origins));
}

replay::CollectiveTask CollectiveWaitStates::all_to_all(const Call& call, CollectiveChannel& ex) {
    const RankedValue latest = co_await ex.allreduce_maxloc(as_value(call.arrival));
    const RankedValue earliest_end = co_await ex.allreduce_minloc(as_value(call.end));
    const bool moves_data = call.sends || call.receives;
    if (earliest_end.value > latest.value) {
        // All ranks were inside the operation at once: all synchronized.
        if (moves_data)
            settle(call, latest.rank, as_ticks(latest.value), as_ticks(earliest_end.value));
        co_return;
    }
    // Some rank left before the last one entered: only the last sender and
    // the receivers that entered before it synchronized.
    const RankedValue last_sender =
        co_await ex.allreduce_maxloc(call.sends ? as_value(call.arrival) : kNotSending);
    const bool synchronized = (call.receives && as_value(call.enter) < last_sender.value) ||
                              (call.sends && call.rank == last_sender.rank);
    const RankedValue first_sync_end =
        co_await ex.allreduce_minloc(synchronized ? as_value(call.end) : kNever);
    co_await record_group(call, ex, synchronized, synchronized);
    if (synchronized)
        settle(call, last_sender.rank, as_ticks(last_sender.value), as_ticks(first_sync_end.value));
}

// The root of a rooted operation: the one its records name, else (on an
// intercommunicator, whose members name it each in their own way, so that
// the trace names none) the lowest member whose part `is_root` says is the
// root's: the one that sent, or received, data. -1 if none is. The same on
// every member.
replay::CollectiveTask CollectiveWaitStates::find_root(const Call& call, CollectiveChannel& ex, bool is_root,
                                                       int& root) {
    const int named = call.view.collective().root;
    if (named >= 0) {
        root = named < ex.size() ? named : -1;
        co_return;
    }
    const RankedValue found = co_await ex.allreduce_maxloc(is_root ? 1.0 : 0.0);
    root = found.value > 0 ? found.rank : -1;
}

replay::CollectiveTask CollectiveWaitStates::one_to_all(const Call& call, CollectiveChannel& ex) {
    int root = -1;
    co_await find_root(call, ex, call.sends, root);
    if (root < 0) co_return;  // the same on every rank
    std::array<double, 2> root_info{as_value(call.arrival), call.sends ? 1.0 : 0.0};
    co_await ex.broadcast_fixed(root_info, root);
    if (root_info[1] == 0.0) co_return;  // the root sent nothing
    const Ticks root_enter = as_ticks(root_info[0]);
    const bool waits_for_root = call.receives && call.enter < root_enter;
    const RankedValue first_waiter_end =
        co_await ex.allreduce_minloc(waits_for_root ? as_value(call.end) : kNever);
    // The root synchronizes with the ranks that waited for it, if any.
    const bool synchronized =
        waits_for_root || (call.rank == root && first_waiter_end.value < kNever);
    if (first_waiter_end.value < kNever) co_await record_group(call, ex, waits_for_root, call.rank == root);
    if (synchronized)
        settle(call, root, root_enter, call.end);
}

replay::CollectiveTask CollectiveWaitStates::all_to_one(const Call& call, CollectiveChannel& ex) {
    int root = -1;
    co_await find_root(call, ex, call.receives && !call.sends, root);
    if (root < 0) co_return;
    // The root waits from where it can (its wait start), the others for it.
    std::array<double, 2> root_info{as_value(call.enter), call.receives ? 1.0 : 0.0};
    co_await ex.broadcast_fixed(root_info, root);
    if (root_info[1] == 0.0) co_return;  // the root received nothing
    const RankedValue last_sender =
        co_await ex.allreduce_maxloc(call.sends ? as_value(call.arrival) : kNotSending);
    // Only the root and the last sender synchronize, if the root came first.
    const bool synchronized =
        root_info[0] < last_sender.value && (call.rank == root || call.rank == last_sender.rank);
    if (synchronized)
        settle(call, last_sender.rank, as_ticks(last_sender.value), call.end);
}

replay::CollectiveTask CollectiveWaitStates::scan(const Call& call, CollectiveChannel& ex) {
    // The last entry (senders only) among the ranks up to this one, and
    // which rank that was (the lowest of equals).
    const replay::RankedValue last = co_await ex.scan_maxloc(call.sends ? as_value(call.arrival) : kNotSending);
    const bool synchronized = (call.sends || call.receives) && as_value(call.enter) < last.value;
    if (synchronized)
        settle(call, last.rank, as_ticks(last.value), call.end);
}

replay::CollectiveTask CollectiveWaitStates::from_sources(const Call& call, CollectiveChannel& ex) {
    // Every member's entry, for each to pick those of its sources. All
    // members take part, whether their own sources are listed or not, so
    // that a trace listing them for some members only cannot split the
    // members' channel operations.
    std::vector<double> arrivals(static_cast<std::size_t>(ex.size()), kNotSending);
    arrivals[static_cast<std::size_t>(call.rank)] = as_value(call.arrival);
    co_await ex.allreduce(arrivals, replay::ReduceOp::Max);
    const trace::Collective& coll = call.view.collective();
    int cause = -1;  // the last of its sources to enter (the lowest rank of equals)
    double awaited = kNotSending;
    if (coll.sources != trace::Collective::kNoSources)
        for (const int source : call.view.trace().sources(coll)) {
            if (source == call.rank || source < 0 || source >= ex.size()) continue;
            const double entry = arrivals[static_cast<std::size_t>(source)];
            if (entry > awaited) {
                awaited = entry;
                cause = source;
            }
        }
    const bool waits = cause >= 0 && awaited > as_value(call.enter);
    // Which members someone waited for: they synchronized there too.
    std::vector<double> awaited_by(static_cast<std::size_t>(ex.size()), 0.0);
    if (waits) awaited_by[static_cast<std::size_t>(cause)] = 1.0;
    co_await ex.allreduce(awaited_by, replay::ReduceOp::Sum);
    if (waits)
        settle(call, cause, as_ticks(awaited), call.end);
    else if (awaited_by[static_cast<std::size_t>(call.rank)] > 0)
        settle(call, call.rank, call.enter, call.end);  // no wait of its own
}

}  // namespace hindsight::analyses
