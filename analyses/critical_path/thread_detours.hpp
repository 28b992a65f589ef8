// Where the critical path leaves a rank's master thread for its OpenMP
// worker threads, and where it comes back (doc/metrics.md, the critical
// path with threads). All threads of a rank are in its own trace, so this
// is local: no exchange.
//
// Walking backward inside a parallel region, the thread holding the path
// keeps it until a barrier at which it waited. Its time in that barrier
// after the last thread arrived stays on the path; the rest of the path
// runs on the thread that arrived last (the lowest thread number among
// those arriving at the same moment: one path, never several). At the
// region's start (the master's fork) the path is back on the master. A
// detour begins where the master waited at a barrier and ends where the
// path reaches the master again: at a barrier it arrived at last, or at
// the fork. Meanwhile the workers carry it, in stretches of their time.
//
// Regions whose threads do not all take part in each barrier (which the
// OpenMP analysis reports) have no detours: the path stays on the master.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "analyses/thread_teams.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// A worker carries the path over [from, to]; its time before it entered the
// region (from the fork on) counts at the region, as its profile has it.
struct ThreadStretch {
    std::size_t thread = 0;
    Ticks from = 0;
    Ticks to = 0;
    CallPathId region = kNoCallPath;
    Ticks region_enter = 0;
};

struct ThreadDetour {
    trace::EventIndex point = trace::kNoEvent;  // the master's Enter of a barrier at which it waited
    Ticks until = 0;                            // the last arrival: the master keeps its barrier after it
    trace::EventIndex back = trace::kNoEvent;   // the master's event where it takes the path back ...
    Ticks position = 0;                         // ... positioned here
    std::vector<ThreadStretch> stretches;
};

class ThreadDetours {
public:
    ThreadDetours() = default;
    // `teams` must outlive it.
    ThreadDetours(const trace::LocalTrace& trace, const ThreadTeams& teams);

    // Sorted by point.
    const std::vector<ThreadDetour>& detours() const { return detours_; }
    // Where the path goes from worker `thread` at `time`, inside a parallel
    // region (it arrived there along an MPI operation of the worker): back
    // over the region's barriers as a detour does, to the master; its
    // `point` is none, its `until` the time. None where the region's
    // detours cannot be followed.
    std::optional<ThreadDetour> from_worker(std::size_t thread, Ticks time) const;
    // Adds the worker's time by call path over `stretch` to `ticks`.
    void add_time(const ThreadStretch& stretch, std::vector<double>& ticks) const;

private:
    // A stretch of a worker's time in one call path (the innermost region
    // open between two of its events).
    struct Piece {
        Ticks from = 0;
        Ticks to = 0;
        CallPathId cnode = kNoCallPath;
    };

    const ThreadTeams* teams_ = nullptr;
    // By region: the master's Enter of the region and of each barrier.
    std::vector<std::vector<trace::EventIndex>> enters_;
    std::vector<ThreadDetour> detours_;
    std::vector<std::vector<Piece>> pieces_;  // by thread, sorted
};

// A worker's time without waits by call path, in ticks, as the critical
// path's activities count it: its profile less its barrier waits, and less
// its time from the last arrival at a region's closing barrier to the
// master's join, when it only waits for the team to end (its release, not
// work; the master goes on with the path there).
std::vector<double> worker_activity(const trace::LocalTrace& trace, const ThreadTeams& teams, std::size_t thread);

// The master's OpenMP barrier waits by call path, in ticks, added to `waits`.
void add_master_barrier_waits(const ThreadTeams& teams, std::vector<double>& waits);

}  // namespace hindsight::analyses
