// The master thread's OpenMP barrier waits as the MPI delay analysis sees
// them (Böhme et al., TOPC 2016, §7.1): a wait inside the master's MPI
// synchronization intervals that ties it to no other rank. Costs of a later
// MPI wait that the master's waiting there explains pass through it to the
// thread that came last to the barrier (barrier_delay.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

struct MasterBarrierWait {
    std::size_t region = 0;   // index into ThreadTeams::regions
    std::size_t barrier = 0;  // the barrier's number in the region
    trace::EventIndex enter = trace::kNoEvent;  // the master's Enter of the barrier in LocalTrace::events
    trace::EventIndex leave = trace::kNoEvent;  // ... and its Leave
    Ticks wait = 0;
};

// In trace order; only barriers where the master waited, of regions whose
// barriers pair up (the barrier analysis leaves the others out).
std::vector<MasterBarrierWait> master_barrier_waits(const trace::LocalTrace& trace, const ThreadTeams& teams);

}  // namespace hindsight::analyses
