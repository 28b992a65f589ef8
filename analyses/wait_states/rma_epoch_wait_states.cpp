#include "analyses/wait_states/rma_epoch_wait_states.hpp"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>
#include <vector>

#include "analyses/metric_claims.hpp"
#include "analyses/wait_states/epoch_calls.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventIndex;
using trace::LocalTrace;

constexpr Ticks kNever = std::numeric_limits<Ticks>::min();

enum class GroupCall : std::uint8_t { Other, Post, Start, Complete, Wait, Test };

GroupCall group_call(const Region& region) {
    for (const std::string_view name : {std::string_view(region.name), std::string_view(region.canonical_name)}) {
        if (name == "MPI_Win_post") return GroupCall::Post;
        if (name == "MPI_Win_start") return GroupCall::Start;
        if (name == "MPI_Win_complete") return GroupCall::Complete;
        if (name == "MPI_Win_wait") return GroupCall::Wait;
        if (name == "MPI_Win_test") return GroupCall::Test;
    }
    return GroupCall::Other;
}

// What one side of an epoch tells a partner (trivially copyable: it travels
// as bytes). A post: when the target began MPI_Win_post. A completion: when
// the origin began MPI_Win_complete, and when the last transfer it issued
// to this partner in the epoch ended (kNever if none). Either with the
// call's Enter, by which the partner names it if the call ended its wait.
struct EpochNote {
    std::uint64_t window = 0;
    Ticks time = 0;
    Ticks last_transfer = kNever;
    std::uint32_t completes = 0;  // 0: a post, 1: a completion
    EventIndex call = trace::kNoEvent;
};

// An access epoch (origin) or an exposure epoch (target) of one window:
// the call that opened it, the one that closed it, its partners as world
// ranks and, per partner, the end of the last transfer of the epoch to it.
struct Epoch {
    std::uint64_t window = 0;
    CallSpan open;
    CallSpan close;
    GroupCall closed_by = GroupCall::Other;
    std::vector<int> partners;
    std::vector<Ticks> last_transfer;  // by partner, origins only
};

std::vector<int> partners_of(const LocalTrace& trace, const trace::RmaGroupSync& sync) {
    std::vector<int> ranks;
    if (sync.group == kNoId || sync.group >= trace.definitions.groups.size()) return ranks;
    for (const std::uint64_t member : trace.definitions.groups[sync.group].members)
        ranks.push_back(static_cast<int>(member));
    return ranks;
}

// The end of the last transfer of each origin epoch to each of its
// partners: transfers are in stream order, and so are the epochs.
void find_transfers(const LocalTrace& trace, std::vector<Epoch>& access) {
    const auto& transfers = trace.rma.transfers;
    for (Epoch& epoch : access) {
        epoch.last_transfer.assign(epoch.partners.size(), kNever);
        auto t = std::lower_bound(transfers.begin(), transfers.end(), epoch.open.enter,
                                  [](const trace::RmaTransfer& x, EventIndex c) { return x.call_enter < c; });
        for (; t != transfers.end() && t->call_enter < epoch.close.enter; ++t) {
            if (t->window != epoch.window || t->comm == kNoId) continue;
            const std::vector<int> world = trace.definitions.world_ranks(t->comm);
            if (t->remote >= world.size()) continue;
            const auto p = std::find(epoch.partners.begin(), epoch.partners.end(), world[t->remote]);
            if (p == epoch.partners.end()) continue;
            Ticks& last = epoch.last_transfer[static_cast<std::size_t>(p - epoch.partners.begin())];
            last = std::max(last, call_span(trace, t->call_enter).end);
        }
    }
}

struct Epochs {
    std::vector<Epoch> access;    // as origin: start ... complete
    std::vector<Epoch> exposure;  // as target: post ... wait (or a test that saw it end)
};

// The epochs in the rank's group synchronizations. A start or post without
// its closing call (a damaged or cut trace) is left out.
Epochs find_epochs(const LocalTrace& trace) {
    Epochs epochs;
    std::map<std::uint64_t, Epoch> open_access, open_exposure;
    for (const trace::RmaGroupSync& sync : trace.rma.group_syncs) {
        if (sync.call_enter == trace::kNoEvent) continue;
        const CallSpan call = call_span(trace, sync.call_enter);
        const GroupCall kind = group_call(trace.region_of(call.cnode));
        switch (kind) {
        case GroupCall::Start:
            open_access[sync.window] = Epoch{sync.window, call, {}, kind, partners_of(trace, sync), {}};
            break;
        case GroupCall::Post:
            open_exposure[sync.window] = Epoch{sync.window, call, {}, kind, partners_of(trace, sync), {}};
            break;
        case GroupCall::Test:
            // An MPI_Win_test that found the epoch still open records its
            // group with no synchronization level.
            if (!sync.synchronized()) break;
            [[fallthrough]];
        case GroupCall::Complete:
        case GroupCall::Wait: {
            auto& open = kind == GroupCall::Complete ? open_access : open_exposure;
            const auto epoch = open.find(sync.window);
            if (epoch == open.end()) break;
            epoch->second.close = call;
            epoch->second.closed_by = kind;
            (kind == GroupCall::Complete ? epochs.access : epochs.exposure).push_back(std::move(epoch->second));
            open.erase(epoch);
            break;
        }
        case GroupCall::Other:
            break;
        }
    }
    const auto by_open = [](const Epoch& a, const Epoch& b) { return a.open.enter < b.open.enter; };
    std::sort(epochs.access.begin(), epochs.access.end(), by_open);
    std::sort(epochs.exposure.begin(), epochs.exposure.end(), by_open);
    find_transfers(trace, epochs.access);
    return epochs;
}

// The notes to each rank, in the order of the epochs.
std::vector<std::vector<EpochNote>> notes_to_partners(const Epochs& epochs, int ranks) {
    std::vector<std::vector<EpochNote>> out(static_cast<std::size_t>(ranks));
    for (const Epoch& e : epochs.exposure)
        for (const int origin : e.partners)
            if (origin >= 0 && origin < ranks)
                out[static_cast<std::size_t>(origin)].push_back({e.window, e.open.begin, kNever, 0, e.open.enter});
    for (const Epoch& e : epochs.access)
        for (std::size_t p = 0; p < e.partners.size(); ++p)
            if (e.partners[p] >= 0 && e.partners[p] < ranks)
                out[static_cast<std::size_t>(e.partners[p])].push_back(
                    {e.window, e.close.begin, e.last_transfer[p], 1, e.close.enter});
    return out;
}

// What the partners told this rank, by sender, window and kind, in order.
class Inbox {
public:
    explicit Inbox(const replay::ByteBlocks& blocks) {
        for (std::size_t r = 0; r < blocks.size(); ++r)
            for (const EpochNote& n : from_block<EpochNote>(blocks[r]))
                queues_[{static_cast<int>(r), n.window, n.completes}].push_back(n);
    }
    // The next note of `kind` from `sender` about `window`, if it sent one.
    const EpochNote* next(int sender, std::uint64_t window, std::uint32_t completes) {
        const auto q = queues_.find({sender, window, completes});
        if (q == queues_.end() || q->second.empty()) return nullptr;
        last_ = q->second.front();
        q->second.pop_front();
        return &last_;
    }

private:
    std::map<std::tuple<int, std::uint64_t, std::uint32_t>, std::deque<EpochNote>> queues_;
    EpochNote last_;
};

// The partner's call that ended a wait: the last post an origin waited
// for, the last completion a target waited for.
struct Ender {
    Ticks time = kNever;
    int rank = -1;
    EventIndex call = trace::kNoEvent;

    void offer(const EpochNote& note, int partner) {
        if (note.time > time) *this = {note.time, partner, note.call};
    }
};

// Late Post on the origin: where the last post of its targets came while
// the origin was inside a call of the epoch, that call waited for it.
void late_post(LocalCube& cube, RmaWaits& waits, const LocalTrace& trace, const Epoch& epoch, const Ender& post) {
    constexpr EpochWaitMetrics kLatePost{Metric::MpiRmaSyncActive, Metric::MpiRmaSyncLatePost,
                                         Metric::MpiRmaCommunication, Metric::MpiRmaCommLatePost};
    if (const auto call = book_epoch_wait(cube, trace, epoch.open, epoch.close, epoch.window, post.time, kLatePost))
        waits.waits.push_back({call->enter, post.time - call->begin, CostPattern::RmaLatePost, post.rank, post.call});
}

void count_pairs(LocalCube& cube, CallPathId cnode, std::size_t partners, std::size_t used) {
    cube.add(Metric::MpiRmaPairsyncCount, cnode, static_cast<double>(partners));
    claim(cube, Metric::MpiRmaPairsyncCount, Metric::MpiRmaPairsyncUnneededCount, cnode,
          static_cast<double>(partners - std::min(used, partners)));
}

}  // namespace

void RmaEpochWaitStates::run(const LocalTrace& trace, const ForwardFacts&, replay::Exchange& exchange) {
    const Epochs epochs = find_epochs(trace);
    // Most traces have no such epochs: one round says so, and nothing more moves.
    if (!exchange.any(!epochs.access.empty() || !epochs.exposure.empty())) return;
    Inbox inbox(exchange.all_to_all(as_blocks(notes_to_partners(epochs, exchange.size()))));

    for (const Epoch& epoch : epochs.access) {
        Ender last_post;
        std::size_t used = 0;
        for (std::size_t p = 0; p < epoch.partners.size(); ++p) {
            if (const EpochNote* post = inbox.next(epoch.partners[p], epoch.window, 0))
                last_post.offer(*post, epoch.partners[p]);
            if (epoch.last_transfer[p] != kNever) ++used;
        }
        if (last_post.time != kNever) late_post(*cube_, *waits_, trace, epoch, last_post);
        count_pairs(*cube_, epoch.close.cnode, epoch.partners.size(), used);
    }
    for (const Epoch& epoch : epochs.exposure) {
        Ender last_complete;
        Ticks last_transfer = kNever;
        std::size_t used = 0;
        for (const int origin : epoch.partners) {
            const EpochNote* done = inbox.next(origin, epoch.window, 1);
            if (!done) continue;
            last_complete.offer(*done, origin);
            last_transfer = std::max(last_transfer, done->last_transfer);
            if (done->last_transfer != kNever) ++used;
        }
        count_pairs(*cube_, epoch.close.cnode, epoch.partners.size(), used);
        // Only a blocking wait waits; a test returns at once either way.
        if (epoch.closed_by != GroupCall::Wait || last_complete.time <= epoch.close.begin) continue;
        const Ticks until = std::min(last_complete.time, epoch.close.end);
        claim(*cube_, Metric::MpiRmaSyncActive, Metric::MpiRmaEarlyWait, epoch.close.cnode,
              trace.seconds(until - epoch.close.begin));
        waits_->waits.push_back({epoch.close.enter, until - epoch.close.begin, CostPattern::RmaEarlyWait,
                                 last_complete.rank, last_complete.call});
        const Ticks late = until - std::max(last_transfer, epoch.close.begin);
        if (late > 0)
            claim(*cube_, Metric::MpiRmaEarlyWait, Metric::MpiRmaLateComplete, epoch.close.cnode,
                  trace.seconds(late));
    }
}

}  // namespace hindsight::analyses
