#include "replay/progress_watch.hpp"

#include <sched.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "common/error.hpp"
#include "replay/mpi_handles.hpp"

namespace hindsight::replay {

std::chrono::microseconds spin_budget(MPI_Comm comm) {
    mpi::Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node.out());
    int ranks_here = 1;
    MPI_Comm_size(node.get(), &ranks_here);
    // The cores the node's ranks may use together: the union of their
    // affinity masks (each rank may be bound to cores of its own).
    // (A rank that cannot read its mask adds none, but still takes part.)
    cpu_set_t cores;
    if (sched_getaffinity(0, sizeof cores, &cores) != 0) CPU_ZERO(&cores);
    MPI_Allreduce(MPI_IN_PLACE, &cores, static_cast<int>(sizeof cores), MPI_BYTE, MPI_BOR, node.get());
    // Measured on 2 cores (1e6 events per rank, all passes): with 2 ranks a
    // budget of 200 us took the replay from 1.3 s to 0.17 s on an idle
    // machine and from 2.0 s to 0.5 s beside 10 busy processes; with 4
    // ranks it helped when idle (0.77 s to 0.43 s) but made the replay 2-3x
    // slower beside them, where the ranks spinning on a core keep it from
    // the rank they wait for.
    return ranks_here <= CPU_COUNT(&cores) ? std::chrono::microseconds(200) : std::chrono::microseconds(0);
}

ProgressWatch::ProgressWatch(std::chrono::duration<double> timeout, std::chrono::microseconds spin_budget)
    : timeout_(timeout), spin_budget_(spin_budget) {
    // The sleeps below should last about what they ask for: with Linux's
    // default timer slack of 50 us, each would hold a waiting rank back for
    // 60 us after its peer was ready, and a pass whose messages travel one
    // by one waits at every message. (Per thread; the replay waits only in the
    // thread that makes the watch.)
    prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}

void ProgressWatch::detect_stalls(MPI_Comm comm) {
    stalls_ = std::make_unique<StallCheck>(comm);
}

void ProgressWatch::begin_wait() {
    since_ = std::chrono::steady_clock::now();
    check_at_ = std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout_);
    yields_ = 0;
    if (stalls_) stalls_->close_question();
}

bool ProgressWatch::pause() {
    // Yield first: a peer on the same core may be what we wait for, and in a
    // pass whose messages travel one by one most waits are a peer's next
    // step in a chain of hand-overs, a few microseconds away. A wait that outlasts a few yields and
    // the spin budget sleeps between tests, so that it frees the core: a
    // sleep costs tens of microseconds on top of what it asks for (timer
    // and wake-up latency), but on an oversubscribed machine yielding alone
    // keeps the waiting ranks busy while the rank they wait for cannot run.
    const auto waited = std::chrono::steady_clock::now() - since_;
    if (++yields_ <= kYields || waited < spin_budget_) {
        sched_yield();
        return false;
    }
    // The longer the wait so far, the longer the sleep (an eighth of it,
    // from 10 us up to 1 ms): a rank that waits for a round of bulk work on
    // the other ranks wakes a few times instead of every 10 us, each wake-up
    // a context switch that takes the core from a rank that works, and it
    // comes back at most an eighth late.
    const auto nap = std::clamp<std::chrono::steady_clock::duration>(waited / 8, std::chrono::microseconds(10),
                                                                     std::chrono::milliseconds(1));
    std::this_thread::sleep_for(nap);
    // Only a rank that sleeps in its wait answers the others' questions: one
    // that waits briefly between steps of its own is making progress.
    if (stalls_) stalls_->serve(waited >= timeout_);
    if (stalls_ && stalls_->stuck()) return true;
    if (waited < check_at_) return false;
    if (!stalls_) return true;
    switch (stalls_->ask(timeout_)) {
    case StallCheck::Verdict::EveryoneWaits:
        return true;
    case StallCheck::Verdict::OthersWork:
        check_at_ = waited + std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout_);
        return false;
    case StallCheck::Verdict::Undecided:
        return false;
    }
    return false;
}

void ProgressWatch::stalled(const std::string& what) const {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", std::chrono::duration<double>(timeout_).count());
    if (stalls_)
        throw Error("", std::string("the analysis made no progress for ") + seconds + " s: " + what +
                            " (every rank waits for another: the trace may be inconsistent)");
    throw Error("", std::string("the analysis made no progress for ") + seconds + " s: " + what +
                    " (the trace may be inconsistent, or a rank has stopped)");
}

}  // namespace hindsight::replay
