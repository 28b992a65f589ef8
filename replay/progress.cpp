#include "replay/progress.hpp"

#include <sched.h>
#include <sys/prctl.h>

#include <cstdio>
#include <thread>

#include "common/error.hpp"

namespace hindsight::replay {

ProgressWatch::ProgressWatch(std::chrono::duration<double> timeout) : timeout_(timeout) {
    // The sleeps below should last about what they ask for: with Linux's
    // default timer slack of 50 us, each would hold a waiting rank back for
    // 60 us after its peer was ready, and a backward pass waits at every
    // message that carries data. (Per thread; the replay waits only in the
    // thread that makes the watch.)
    prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
}

void ProgressWatch::begin_wait() {
    since_ = std::chrono::steady_clock::now();
    spins_ = 0;
}

bool ProgressWatch::pause() {
    // Yield: a peer on the same core may be what we wait for. A wait that
    // lasts longer than a few yields sleeps between tests, so that it frees
    // the core: on an oversubscribed machine, yielding alone keeps the
    // waiting ranks busy while the rank they wait for cannot run.
    ++spins_;
    if (spins_ < 16) {
        sched_yield();
        return false;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(10));
    if (spins_ % 16 != 0) return false;
    const auto waited = std::chrono::steady_clock::now() - since_;
    return waited >= timeout_;
}

void ProgressWatch::stalled(const std::string& what) const {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.0f", std::chrono::duration<double>(timeout_).count());
    throw Error("", std::string("replay made no progress for ") + seconds + " s: " + what +
                    " (the trace may be inconsistent)");
}

}  // namespace hindsight::replay
