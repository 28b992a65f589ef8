#include "analyses/wait_states/rma_lock_wait_states.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "analyses/wait_states/epoch_calls.hpp"
#include "analyses/wait_states/lock_epochs.hpp"
#include "analyses/wait_states/rma_progress_waits.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventIndex;
using trace::LocalTrace;

// What an origin tells a target of one of its epochs, and what the target
// answers (trivially copyable: they travel as bytes).
struct LockNote {
    std::uint64_t window = 0;
    Ticks requested = 0;  // the entry of MPI_Win_lock
    Ticks released = 0;   // the entry of MPI_Win_unlock
    std::uint32_t epoch = 0;      // the origin's index of the epoch
    std::uint32_t exclusive = 0;
    EventIndex unlock = trace::kNoEvent;  // the Enter of MPI_Win_unlock
    std::uint32_t padding = 0;
};
// When a lock was granted, and if it had to wait, whose MPI_Win_unlock
// (world rank, the call's Enter there) granted it.
struct GrantNote {
    Ticks granted = 0;
    std::uint32_t epoch = 0;
    std::int32_t holder = -1;
    EventIndex holder_unlock = trace::kNoEvent;
    std::uint32_t padding = 0;
};

// The target's side: when it granted each lock asked of it, by window, in
// the order the locks were asked for (the lower origin first on a tie);
// answers by origin.
std::vector<std::vector<GrantNote>> grant(const replay::ByteBlocks& asked) {
    struct Asked {
        LockNote note;
        int origin;
    };
    std::map<std::uint64_t, std::vector<Asked>> by_window;
    for (std::size_t r = 0; r < asked.size(); ++r)
        for (const LockNote& n : from_block<LockNote>(asked[r]))
            by_window[n.window].push_back({n, static_cast<int>(r)});
    std::vector<std::vector<GrantNote>> answers(asked.size());
    for (auto& [window, locks] : by_window) {
        std::stable_sort(locks.begin(), locks.end(), [](const Asked& a, const Asked& b) {
            return std::tie(a.note.requested, a.origin) < std::tie(b.note.requested, b.origin);
        });
        // An exclusive lock conflicts with every earlier one, a shared lock
        // with the earlier exclusive ones: of each group the one given back
        // last (the first of a tie) holds the lock longest, so a running
        // latest of each suffices, whatever the number of locks.
        const Asked* latest_any = nullptr;
        const Asked* latest_exclusive = nullptr;
        for (const Asked& lock : locks) {
            GrantNote answer{lock.note.requested, lock.note.epoch};
            const Asked* holder = lock.note.exclusive != 0 ? latest_any : latest_exclusive;
            if (holder && holder->note.released > answer.granted) {
                answer.granted = holder->note.released;
                answer.holder = holder->origin;
                answer.holder_unlock = holder->note.unlock;
            }
            answers[static_cast<std::size_t>(lock.origin)].push_back(answer);
            if (!latest_any || lock.note.released > latest_any->note.released) latest_any = &lock;
            if (lock.note.exclusive != 0 && (!latest_exclusive || lock.note.released > latest_exclusive->note.released))
                latest_exclusive = &lock;
        }
    }
    return answers;
}

// The epoch waited until the grant in the call of it that was running then.
void book(LocalCube& cube, RmaWaits& waits, const LocalTrace& trace, const LockEpoch& epoch, const GrantNote& grant) {
    constexpr EpochWaitMetrics kLockContention{Metric::MpiRmaSyncPassive, Metric::MpiRmaSyncLockCompetition,
                                               Metric::MpiRmaCommunication, Metric::MpiRmaCommLockCompetition};
    if (const auto call =
            book_epoch_wait(cube, trace, epoch.lock, epoch.unlock, epoch.window, grant.granted, kLockContention))
        waits.waits.push_back({call->enter, grant.granted - call->begin, CostPattern::RmaLockContention, grant.holder,
                               grant.holder_unlock});
}

}  // namespace

void RmaLockWaitStates::run(const LocalTrace& trace, const ForwardFacts&, replay::Exchange& exchange) {
    const std::vector<LockEpoch> epochs = find_lock_epochs(trace);
    // Most traces have no lock epochs: one round says so, and nothing more moves.
    if (!exchange.any(!epochs.empty())) return;
    std::vector<std::vector<LockNote>> asking(static_cast<std::size_t>(exchange.size()));
    for (std::uint32_t e = 0; e < epochs.size(); ++e)
        for (const int target : epochs[e].targets)
            if (target >= 0 && target < exchange.size())
                asking[static_cast<std::size_t>(target)].push_back(
                    {epochs[e].window, epochs[e].lock.begin, epochs[e].unlock.begin, e,
                     epochs[e].exclusive ? 1u : 0u, epochs[e].unlock.enter});
    const replay::ByteBlocks answers = exchange.all_to_all(as_blocks(grant(exchange.all_to_all(as_blocks(asking)))));
    // A lock of every target waited for the last of them.
    std::vector<GrantNote> granted(epochs.size());
    for (std::uint32_t e = 0; e < epochs.size(); ++e) granted[e] = {epochs[e].lock.begin, e};
    for (const std::vector<std::byte>& block : answers)
        for (const GrantNote& g : from_block<GrantNote>(block))
            if (g.epoch < granted.size() && g.granted > granted[g.epoch].granted) granted[g.epoch] = g;
    std::vector<Ticks> grants(epochs.size());
    for (std::uint32_t e = 0; e < epochs.size(); ++e) {
        if (granted[e].granted > epochs[e].lock.begin) book(*cube_, *waits_, trace, epochs[e], granted[e]);
        grants[e] = granted[e].granted;
    }
    book_progress_waits(*cube_, *waits_, trace, epochs, grants, exchange);
}

}  // namespace hindsight::analyses
