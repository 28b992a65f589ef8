// The parallel regions of one rank as its threads' streams show them: for
// each region instance the master's fork and join, and each thread's part
// (its visit of the region, the barriers it entered in order, the lock
// acquisitions it made). The OpenMP analyses (analyses/openmp/) and the
// critical path over threads read this: a fact of the trace they share.
//
// Score-P's conventions (doc/analyzer.md): the master forks, each thread
// begins its part in the team and enters the region; the first region a
// thread enters in a team is the parallel region. Barriers are told by
// their names ("!$omp barrier", "!$omp implicit barrier" or "!$omp
// ibarrier", each optionally followed by " @file:line"), as Score-P names
// them, and only inside parallel regions; explicit tasks by their role or
// names ("!$omp task", "!$omp untied task"). A thread that runs tasks
// inside a barrier works there: only the rest of its time in the barrier
// can be waiting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/local_trace.hpp"

namespace hindsight::analyses {

enum class BarrierKind : std::uint8_t { None, Explicit, Implicit };

// Which barrier a region is, by Score-P's name of the construct.
BarrierKind barrier_kind(std::string_view region_name);
// Whether the region is an OpenMP parallel construct ("!$omp parallel").
bool is_parallel_construct(std::string_view region_name);
// Whether the region is the execution of an explicit task.
bool is_task_region(const Region& region);

// A stretch of a barrier visit in which the thread ran explicit tasks.
struct TaskRun {
    Ticks begin = 0;
    Ticks end = 0;
};

struct BarrierVisit {
    CallPathId cnode = kNoCallPath;
    Ticks enter = 0;
    Ticks leave = 0;
    BarrierKind kind = BarrierKind::None;
    std::vector<TaskRun> tasks;  // the outermost task regions it ran, in order

    // Its waiting until the team's last thread arrived at `last`: the time
    // from its entry less the tasks it ran meanwhile (0 if it came last).
    Ticks waiting_until(Ticks last) const;
};

// A lock taken by a thread: where (the innermost region open at the
// acquisition, and when that region was entered) and which acquisition.
struct LockAcquisition {
    std::uint32_t lock = 0;
    std::uint32_t order = 0;
    CallPathId cnode = kNoCallPath;
    Ticks region_enter = 0;
};

// One thread's part in one region instance. A team may have fewer threads
// than the rank (a num_threads or if clause): the others are no members and
// have no part in it.
struct ThreadPart {
    bool member = false;   // it began the region's team
    bool present = false;  // ... and entered the region
    CallPathId region = kNoCallPath;  // the parallel region's call path
    Ticks enter = 0;
    Ticks leave = 0;
    std::vector<BarrierVisit> barriers;
};

struct ParallelRegion {
    Ticks fork = 0;
    Ticks join = 0;
    std::vector<ThreadPart> threads;  // by thread, master first
};

struct ThreadTeams {
    std::vector<ParallelRegion> regions;  // in the master's order
    // Per thread, its lock acquisitions (all of them, inside regions or not).
    std::vector<std::vector<LockAcquisition>> acquisitions;
    // Release time of every acquisition, by lock and order.
    struct Release {
        std::uint32_t lock = 0;
        std::uint32_t order = 0;
        Ticks time = 0;
    };
    std::vector<Release> releases;  // sorted by (lock, order)
    // What did not fit the conventions, one sentence each (the summary's
    // warnings): such regions are left out of the barrier analysis.
    std::vector<std::string> problems;
};

ThreadTeams find_thread_teams(const trace::LocalTrace& trace);

// The region instance whose team a worker thread began at `begin`: the one
// the master forked last before, if it had not joined yet. A worker takes
// part in the regions whose team it is a member of, not in all: a team may
// be smaller than the rank's threads.
std::optional<std::size_t> team_region(const ThreadTeams& teams, Ticks begin);

// Whether the master and every other member of the team took part in the
// region and entered as many barriers as the master: only then do its
// barrier instances pair up.
bool barriers_pair_up(const ParallelRegion& region);

// When the last thread of the team entered barrier `b` of a region whose
// barriers pair up: until then the others wait.
Ticks last_arrival(const ParallelRegion& region, std::size_t b);

}  // namespace hindsight::analyses
