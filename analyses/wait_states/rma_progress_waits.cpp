#include "analyses/wait_states/rma_progress_waits.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "analyses/metric_claims.hpp"
#include "common/time_category.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventIndex;
using trace::LocalTrace;

constexpr int kEveryTarget = -1;

// A call of an epoch that needed its target, or every target of the epoch.
struct NeedyCall {
    CallSpan call;
    std::uint32_t epoch = 0;
    int target = kEveryTarget;  // world rank
    bool transfer = false;
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

// The calls of the epochs that may have waited for their targets: the lock,
// the transfers on the window to the epoch's targets, the unlock; of these,
// those that began at or after the grant (the one the grant fell in waited
// for the lock, the ones before did not need the target yet).
std::vector<NeedyCall> needy_calls(const LocalTrace& trace, std::span<const LockEpoch> epochs,
                                   std::span<const Ticks> granted) {
    std::vector<NeedyCall> calls;
    Members members(trace);
    const auto& transfers = trace.rma.transfers;
    for (std::uint32_t e = 0; e < epochs.size(); ++e) {
        const LockEpoch& epoch = epochs[e];
        const auto add = [&](const CallSpan& call, int target, bool transfer) {
            if (call.begin >= granted[e]) calls.push_back({call, e, target, transfer});
        };
        add(epoch.lock, kEveryTarget, false);
        auto t = std::lower_bound(transfers.begin(), transfers.end(), epoch.lock.enter,
                                  [](const trace::RmaTransfer& x, EventIndex c) { return x.call_enter < c; });
        for (; t != transfers.end() && t->call_enter < epoch.unlock.enter; ++t) {
            if (t->window != epoch.window || t->comm == kNoId) continue;
            const int target = members.world_rank(t->comm, t->remote);
            if (std::find(epoch.targets.begin(), epoch.targets.end(), target) == epoch.targets.end()) continue;
            // A call that issued several transfers to the target is one call.
            if (!calls.empty() && calls.back().call.enter == t->call_enter && calls.back().target == target)
                continue;
            add(call_span(trace, t->call_enter), target, true);
        }
        add(epoch.unlock, kEveryTarget, false);
    }
    return calls;
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
    const std::vector<NeedyCall> calls = needy_calls(trace, epochs, granted);
    std::vector<std::vector<CallNote>> asking(static_cast<std::size_t>(exchange.size()));
    const auto ask = [&](int target, std::uint32_t c) {
        // A rank is inside MPI whenever its own call runs.
        if (target < 0 || target >= exchange.size() || target == exchange.rank()) return;
        asking[static_cast<std::size_t>(target)].push_back({calls[c].call.begin, calls[c].call.end, c});
    };
    for (std::uint32_t c = 0; c < calls.size(); ++c) {
        if (calls[c].target != kEveryTarget)
            ask(calls[c].target, c);
        else
            for (const int target : epochs[calls[c].epoch].targets) ask(target, c);
    }
    const replay::ByteBlocks answers =
        exchange.all_to_all(as_blocks(answer(trace, exchange.all_to_all(as_blocks(asking)))));

    // A call that needed several targets waited for the last of them.
    struct Latest {
        ProgressNote note;
        int target = -1;
    };
    std::vector<Latest> latest(calls.size());
    for (std::size_t target = 0; target < answers.size(); ++target)
        for (const ProgressNote& p : from_block<ProgressNote>(answers[target]))
            if (p.call < calls.size() && p.entered > latest[p.call].note.entered)
                latest[p.call] = {p, static_cast<int>(target)};
    for (std::uint32_t c = 0; c < calls.size(); ++c) {
        const Latest& l = latest[c];
        const CallSpan& call = calls[c].call;
        if (l.target < 0 || l.note.entered <= call.begin) continue;
        const Ticks waited = l.note.entered - call.begin;
        if (calls[c].transfer)
            claim(cube, Metric::MpiRmaCommunication, Metric::MpiRmaCommWaitForProgress, call.cnode,
                  trace.seconds(waited));
        else
            claim(cube, Metric::MpiRmaSyncPassive, Metric::MpiRmaSyncWaitForProgress, call.cnode,
                  trace.seconds(waited));
        waits.waits.push_back({call.enter, waited, CostPattern::RmaWaitForProgress, l.target, l.note.target_call});
    }
}

}  // namespace hindsight::analyses
