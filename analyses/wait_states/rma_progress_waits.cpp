#include "analyses/wait_states/rma_progress_waits.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyses/metric_claims.hpp"
#include "common/time_category.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventIndex;
using trace::LocalTrace;

// A call of an epoch that may have waited for its targets.
struct NeedyCall {
    CallSpan call;
    bool transfer = false;
};

// The calls, and which targets each needed (by call, in no order).
struct NeedyCalls {
    std::vector<NeedyCall> calls;
    std::vector<std::pair<std::uint32_t, int>> targets;  // (call, world rank)
};

// The world ranks of a communicator's members, looked up once per
// communicator (a trace may have millions of transfers).
class Members {
public:
    explicit Members(const LocalTrace& trace) : trace_(&trace) {}
    int world_rank(CommId comm, std::uint32_t rank) {
        auto found = ranks_.find(comm);
        if (found == ranks_.end()) found = ranks_.emplace(comm, trace_->definitions.world_ranks(comm)).first;
        return rank < found->second.size() ? found->second[rank] : -1;
    }

private:
    const LocalTrace* trace_;
    std::map<CommId, std::vector<int>> ranks_;
};

// Whether the call that completed a transfer completed it at the target:
// MPI_Win_flush and _flush_all do; the MPI_Wait* or MPI_Test* of a request
// transfer (MPI_Rput & co.) completes it only locally.
bool completes_at_target(const LocalTrace& trace, EventIndex call) {
    const Region& region = trace.region_of(trace.events[call].cnode);
    // A local flush (MPI_Win_flush_local & co.) completes nothing there.
    const auto flush = [](const std::string& name) {
        return name.starts_with("MPI_Win_flush") && !name.starts_with("MPI_Win_flush_local");
    };
    return flush(region.name) || flush(region.canonical_name);
}

// The calls of the epochs that may have waited for their targets: the lock
// and the unlock (every target of the epoch), the transfers on the window to
// the epoch's targets (their target), the flushes that completed some of
// them (MPI_Win_flush: the targets of those); of these, those that began at
// or after the grant (the one the grant fell in waited for the lock, the
// ones before did not need the target yet).
NeedyCalls needy_calls(const LocalTrace& trace, std::span<const LockEpoch> epochs, std::span<const Ticks> granted) {
    NeedyCalls needy;
    Members members(trace);
    std::map<EventIndex, std::uint32_t> flushes;  // by the call's Enter: its index
    std::set<std::pair<EventIndex, int>> flushed;  // (flush, target) pairs known
    const auto add = [&](const CallSpan& call, bool transfer, Ticks grant) -> std::optional<std::uint32_t> {
        if (call.begin < grant) return std::nullopt;
        needy.calls.push_back({call, transfer});
        return static_cast<std::uint32_t>(needy.calls.size() - 1);
    };
    const auto need = [&](std::optional<std::uint32_t> call, int target) {
        if (call) needy.targets.emplace_back(*call, target);
    };
    const auto& transfers = trace.rma.transfers;
    for (std::uint32_t e = 0; e < epochs.size(); ++e) {
        const LockEpoch& epoch = epochs[e];
        const auto every_target = [&](std::optional<std::uint32_t> call) {
            for (const int target : epoch.targets) need(call, target);
        };
        every_target(add(epoch.lock, false, granted[e]));
        auto t = std::lower_bound(transfers.begin(), transfers.end(), epoch.lock.enter,
                                  [](const trace::RmaTransfer& x, EventIndex c) { return x.call_enter < c; });
        EventIndex last_call = trace::kNoEvent;
        for (; t != transfers.end() && t->call_enter < epoch.unlock.enter; ++t) {
            if (t->window != epoch.window || t->comm == kNoId) continue;
            const int target = members.world_rank(t->comm, t->remote);
            if (std::find(epoch.targets.begin(), epoch.targets.end(), target) == epoch.targets.end()) continue;
            // A call that issued several transfers (to one target) is one call.
            if (t->call_enter != last_call) need(add(call_span(trace, t->call_enter), true, granted[e]), target);
            last_call = t->call_enter;
            const EventIndex flush = t->completing_call;
            if (t->completed == trace::RmaTransfer::kNotCompleted || flush == trace::kNoEvent ||
                flush == t->call_enter || flush == epoch.unlock.enter || !completes_at_target(trace, flush) ||
                !flushed.emplace(flush, target).second)
                continue;
            auto known = flushes.find(flush);
            if (known == flushes.end()) {
                const auto call = add(call_span(trace, flush), false, granted[e]);
                if (!call) continue;
                known = flushes.emplace(flush, *call).first;
            }
            need(known->second, target);
        }
        every_target(add(epoch.unlock, false, granted[e]));
    }
    return needy;
}

// What an origin tells a target of a call that needed it, and what the
// target answers (trivially copyable: they travel as bytes).
struct CallNote {
    Ticks begin = 0;
    Ticks end = 0;
    std::uint32_t call = 0;  // the origin's index of the call
    std::uint32_t padding = 0;
};
// Where the target entered MPI while the call ran, and that call's Enter.
struct ProgressNote {
    Ticks entered = 0;
    EventIndex target_call = trace::kNoEvent;
    std::uint32_t call = 0;
};

// The rank's MPI calls, the outermost of nested ones, in order: they
// neither overlap nor nest, so their ends are in order too.
std::vector<CallSpan> mpi_calls(const LocalTrace& trace) {
    std::vector<CallSpan> calls;
    EventIndex inside_until = 0;  // the Leave of the last call found
    for (EventIndex i = 0; i < trace.events.size(); ++i) {
        const trace::Event& e = trace.events[i];
        if (e.kind != trace::EventKind::Enter || i < inside_until || !is_mpi_call(trace.region_of(e.cnode)))
            continue;
        calls.push_back(call_span(trace, i));
        inside_until = e.ref;
    }
    return calls;
}

// The target's side: for each call of an origin that began while this rank
// was outside MPI, where it entered MPI next, if that was before the call
// ended.
std::vector<std::vector<ProgressNote>> answer(const LocalTrace& trace, const replay::ByteBlocks& asked) {
    std::vector<std::vector<ProgressNote>> answers(asked.size());
    if (std::all_of(asked.begin(), asked.end(), [](const auto& block) { return block.empty(); })) return answers;
    const std::vector<CallSpan> calls = mpi_calls(trace);
    for (std::size_t origin = 0; origin < asked.size(); ++origin)
        for (const CallNote& note : from_block<CallNote>(asked[origin])) {
            // The first MPI call of this rank still running after the origin's entry.
            const auto next = std::upper_bound(calls.begin(), calls.end(), note.begin,
                                               [](Ticks t, const CallSpan& c) { return t < c.end; });
            if (next == calls.end() || next->begin <= note.begin || next->begin >= note.end) continue;
            answers[origin].push_back({next->begin, next->enter, note.call});
        }
    return answers;
}

}  // namespace

void book_progress_waits(LocalCube& cube, RmaWaits& waits, const LocalTrace& trace,
                         std::span<const LockEpoch> epochs, std::span<const Ticks> granted,
                         replay::Exchange& exchange) {
    const NeedyCalls needy = needy_calls(trace, epochs, granted);
    std::vector<std::vector<CallNote>> asking(static_cast<std::size_t>(exchange.size()));
    for (const auto& [c, target] : needy.targets) {
        // A rank is inside MPI whenever its own call runs.
        if (target < 0 || target >= exchange.size() || target == exchange.rank()) continue;
        asking[static_cast<std::size_t>(target)].push_back({needy.calls[c].call.begin, needy.calls[c].call.end, c});
    }
    const replay::ByteBlocks answers =
        exchange.all_to_all(as_blocks(answer(trace, exchange.all_to_all(as_blocks(asking)))));

    // A call that needed several targets waited for the last of them.
    struct Latest {
        ProgressNote note;
        int target = -1;
    };
    std::vector<Latest> latest(needy.calls.size());
    for (std::size_t target = 0; target < answers.size(); ++target)
        for (const ProgressNote& p : from_block<ProgressNote>(answers[target]))
            if (p.call < latest.size() && p.entered > latest[p.call].note.entered)
                latest[p.call] = {p, static_cast<int>(target)};
    for (std::uint32_t c = 0; c < needy.calls.size(); ++c) {
        const Latest& l = latest[c];
        const CallSpan& call = needy.calls[c].call;
        if (l.target < 0 || l.note.entered <= call.begin) continue;
        const Ticks waited = l.note.entered - call.begin;
        if (needy.calls[c].transfer)
            claim(cube, Metric::MpiRmaCommunication, Metric::MpiRmaCommWaitForProgress, call.cnode,
                  trace.seconds(waited));
        else
            claim(cube, Metric::MpiRmaSyncPassive, Metric::MpiRmaSyncWaitForProgress, call.cnode,
                  trace.seconds(waited));
        waits.waits.push_back({call.enter, waited, CostPattern::RmaWaitForProgress, l.target, l.note.target_call});
    }
}

}  // namespace hindsight::analyses
