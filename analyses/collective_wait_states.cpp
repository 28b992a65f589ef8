#include "analyses/collective_wait_states.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "analyses/metric_claims.hpp"
#include "common/error.hpp"

namespace hindsight::analyses {

using replay::CollectiveChannel;
using trace::CollectiveOp;
using replay::RankedValue;

// Timestamps travel as doubles: exact for tick counts below 2^53.
namespace {

// "No metric" for operations that have no wait or no completion metric.
constexpr Metric kNoMetric = Metric::Count_;
constexpr double kNever = std::numeric_limits<double>::max();
constexpr double kNotSending = std::numeric_limits<double>::lowest();

double as_value(Ticks t) { return static_cast<double>(t); }
Ticks as_ticks(double v) { return static_cast<Ticks>(v); }

// Whether no rank can end the operation before the entry it waits for, so
// that an end before that entry can only mean that the clocks disagree (a
// clock-condition violation), as in Scalasca. MPI_Init and MPI_Finalize are
// no such synchronization: MPI may let a rank leave them before another
// one entered, even on one node with one clock.
constexpr bool ends_after_awaited_entry(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::Init:
    case CollectiveOp::Finalize:
        return false;
    case CollectiveOp::Barrier:
    case CollectiveOp::Bcast:
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::Allreduce:
    case CollectiveOp::Reduce:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
    case CollectiveOp::Other:
        return true;
    }
    return true;
}

}  // namespace

struct CollectiveWaitStates::Call {
    const trace::EventView& view;
    Ticks enter = 0;  // entry of the MPI call
    Ticks end = 0;    // end of the operation
    bool sends = false;
    bool receives = false;
    int rank = 0;  // in the communicator
    // Whether an end before the awaited entry is a clock-condition violation.
    bool checks_clock = true;
};

void CollectiveWaitStates::begin_pass(const trace::LocalTrace& trace,
                                      replay::Direction direction) {
    if (direction != replay::Direction::Forward)
        throw Error(trace.anchor_path, "collective wait states need a forward replay");
    points_->wait_states.bind(trace);
}

replay::CollectiveTask CollectiveWaitStates::on_collective(const trace::EventView& view,
                                                           CollectiveChannel& exchange) {
    if (exchange.size() <= 1) co_return;
    const trace::Collective& coll = view.collective();
    // Measured from the operation's begin, as in Scalasca: a rank may spend
    // time in the call before the operation starts (argument checks, ...).
    const Call call{view,
                    coll.begin == trace::Collective::kNoBegin ? view.enter().time : coll.begin,
                    view.time(),
                    coll.bytes_sent > 0,
                    coll.bytes_received > 0,
                    exchange.rank(),
                    ends_after_awaited_entry(coll.op)};
    switch (coll.op) {
    case CollectiveOp::Barrier:
        co_await all_synchronizing(call, exchange, WaitPattern::Barrier, Metric::MpiBarrierWait,
                          Metric::MpiBarrierCompletion);
        break;
    case CollectiveOp::Init:
        // No wait at MPI_Init: the ranks start at unrelated times, and that
        // is nobody's delay.
        co_await all_synchronizing(call, exchange, WaitPattern::InitCompletion, kNoMetric,
                          Metric::MpiInitCompletion);
        break;
    case CollectiveOp::Finalize:
        co_await all_synchronizing(call, exchange, WaitPattern::FinalizeWait, Metric::MpiFinalizeWait,
                          kNoMetric);
        break;
    case CollectiveOp::Allgather:
    case CollectiveOp::Allgatherv:
    case CollectiveOp::Alltoall:
    case CollectiveOp::Allreduce:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::ReduceScatterBlock:
        co_await all_to_all(call, exchange);
        break;
    case CollectiveOp::Bcast:
    case CollectiveOp::Scatter:
    case CollectiveOp::Scatterv:
        co_await one_to_all(call, exchange);
        break;
    case CollectiveOp::Gather:
    case CollectiveOp::Gatherv:
    case CollectiveOp::Reduce:
        co_await all_to_one(call, exchange);
        break;
    case CollectiveOp::Scan:
    case CollectiveOp::Exscan:
        co_await scan(call, exchange);
        break;
    case CollectiveOp::Alltoallv:
    case CollectiveOp::Alltoallw:
    case CollectiveOp::Other:
        break;
    }
}

void CollectiveWaitStates::settle(const Call& call, WaitPattern pattern, int cause,
                                  Ticks awaited_enter, Ticks first_end, Metric wait_metric,
                                  Metric completion_metric) {
    if (call.checks_clock && awaited_enter > call.end) ++points_->clock_violations.collective;
    // Clamped to the time in the call: with skewed clocks the awaited entry
    // may seem to come after this rank's end.
    const Ticks awaited = std::min(awaited_enter, call.end);
    // Nobody can leave before the awaited rank entered.
    const Ticks completion_start = std::max(first_end, awaited);
    const Ticks wait = std::max<Ticks>(0, awaited - call.enter);
    const Ticks completion = std::max<Ticks>(0, call.end - completion_start);

    // A wait the report does not show (at MPI_Init) is no wait state either:
    // nobody's work delayed the ranks' start.
    const Ticks recorded_wait = wait_metric == kNoMetric ? 0 : wait;
    // Every rank that synchronized here is a synchronization point of the
    // delay analysis, but for scans (as in Scalasca).
    points_->wait_states.record(call.view.index(),
                                {pattern, recorded_wait, cause, pattern != WaitPattern::EarlyScan, completion});
    const CallPathId cnode = call.view.enter().cnode;
    const auto& trace = call.view.trace();
    if (wait > 0 && wait_metric != kNoMetric) claim_time(*cube_, trace, wait_metric, cnode, wait);
    if (completion > 0 && completion_metric != kNoMetric)
        claim_time(*cube_, trace, completion_metric, cnode, completion);
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
    std::vector<int>& group = points_->partial_groups[call.view.index()];
    group.clear();
    for (int r = 0; r < ex.size(); ++r) {
        const auto word = static_cast<std::uint64_t>(bits[static_cast<std::size_t>(r / kBits)]);
        if ((word >> (r % kBits)) & 1u)
            group.push_back(static_cast<std::size_t>(r) < world.size() ? world[static_cast<std::size_t>(r)] : r);
    }
    std::sort(group.begin(), group.end());
}

replay::CollectiveTask CollectiveWaitStates::all_synchronizing(const Call& call, CollectiveChannel& ex,
                                                               WaitPattern pattern, Metric wait,
                                                               Metric completion) {
    const RankedValue latest = co_await ex.allreduce_maxloc(as_value(call.enter));
    const RankedValue earliest_end = co_await ex.allreduce_minloc(as_value(call.end));
    settle(call, pattern, latest.rank, as_ticks(latest.value), as_ticks(earliest_end.value), wait,
           completion);
}

replay::CollectiveTask CollectiveWaitStates::all_to_all(const Call& call, CollectiveChannel& ex) {
    const RankedValue latest = co_await ex.allreduce_maxloc(as_value(call.enter));
    const RankedValue earliest_end = co_await ex.allreduce_minloc(as_value(call.end));
    const bool moves_data = call.sends || call.receives;
    if (earliest_end.value > latest.value) {
        // All ranks were inside the operation at once: all synchronized.
        if (moves_data)
            settle(call, WaitPattern::NxN, latest.rank, as_ticks(latest.value),
                   as_ticks(earliest_end.value), Metric::MpiWaitNxN, Metric::MpiNxNCompletion);
        co_return;
    }
    // Some rank left before the last one entered: only the last sender and
    // the receivers that entered before it synchronized.
    const RankedValue last_sender =
        co_await ex.allreduce_maxloc(call.sends ? as_value(call.enter) : kNotSending);
    const bool synchronized = (call.receives && as_value(call.enter) < last_sender.value) ||
                              (call.sends && call.rank == last_sender.rank);
    const RankedValue first_sync_end =
        co_await ex.allreduce_minloc(synchronized ? as_value(call.end) : kNever);
    co_await record_group(call, ex, synchronized, synchronized);
    if (synchronized)
        settle(call, WaitPattern::NxN, last_sender.rank, as_ticks(last_sender.value),
               as_ticks(first_sync_end.value), Metric::MpiWaitNxN, Metric::MpiNxNCompletion);
}

replay::CollectiveTask CollectiveWaitStates::one_to_all(const Call& call, CollectiveChannel& ex) {
    const int root = call.view.collective().root;
    if (root < 0 || root >= ex.size()) co_return;  // the same on every rank
    std::array<double, 2> root_info{as_value(call.enter), call.sends ? 1.0 : 0.0};
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
        settle(call, WaitPattern::LateBroadcast, root, root_enter, call.end,
               Metric::MpiLateBroadcast, kNoMetric);
}

replay::CollectiveTask CollectiveWaitStates::all_to_one(const Call& call, CollectiveChannel& ex) {
    const int root = call.view.collective().root;
    if (root < 0 || root >= ex.size()) co_return;
    std::array<double, 2> root_info{as_value(call.enter), call.receives ? 1.0 : 0.0};
    co_await ex.broadcast_fixed(root_info, root);
    if (root_info[1] == 0.0) co_return;  // the root received nothing
    const RankedValue last_sender =
        co_await ex.allreduce_maxloc(call.sends ? as_value(call.enter) : kNotSending);
    // Only the root and the last sender synchronize, if the root came first.
    const bool synchronized =
        root_info[0] < last_sender.value && (call.rank == root || call.rank == last_sender.rank);
    if (synchronized)
        settle(call, WaitPattern::EarlyReduce, last_sender.rank, as_ticks(last_sender.value),
               call.end, Metric::MpiEarlyReduce, kNoMetric);
}

replay::CollectiveTask CollectiveWaitStates::scan(const Call& call, CollectiveChannel& ex) {
    // The last entry (senders only) among the ranks up to this one, and
    // which rank that was (the lowest of equals).
    const replay::RankedValue last = co_await ex.scan_maxloc(call.sends ? as_value(call.enter) : kNotSending);
    const bool synchronized = (call.sends || call.receives) && as_value(call.enter) < last.value;
    if (synchronized)
        settle(call, WaitPattern::EarlyScan, last.rank, as_ticks(last.value), call.end, Metric::MpiEarlyScan,
               kNoMetric);
}

}  // namespace hindsight::analyses
