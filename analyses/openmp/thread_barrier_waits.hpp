// A thread's OpenMP barrier waits as the MPI delay analysis sees them
// (Böhme et al., TOPC 2016, §7.1): a wait inside the thread's MPI
// synchronization intervals that ties it to no other rank. Costs of a later
// MPI wait that the thread's waiting there explains pass through it to the
// thread that came last to the barrier (barrier_delay.hpp). The master's
// intervals hold its barrier waits; a worker's, where it has messages of
// its own (delay/thread_points.hpp), hold its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

struct ThreadBarrierWait {
    std::size_t region = 0;   // index into ThreadTeams::regions
    std::size_t barrier = 0;  // the barrier's number in the region
    std::uint32_t thread = 0;
    // The thread's Enter and Leave of the barrier: in LocalTrace::events
    // for the master, in its thread's events for a worker.
    trace::EventIndex enter = trace::kNoEvent;
    trace::EventIndex leave = trace::kNoEvent;
    Ticks wait = 0;
};

// Of thread `thread` (0: the master), in trace order; only barriers where
// it waited, of regions whose barriers pair up (the barrier analysis leaves
// the others out).
std::vector<ThreadBarrierWait> thread_barrier_waits(const trace::LocalTrace& trace, const ThreadTeams& teams,
                                                    std::uint32_t thread);

}  // namespace hindsight::analyses
