// The OpenMP wait states of one rank's threads, each booked on the thread
// that waited, at the call path where it waited (doc/metrics.md):
// - barrier waits: at every barrier instance a thread waits from its entry
//   until the last thread of the team entered (explicit and implicit
//   barriers apart, by name: thread_teams.hpp);
// - management: a thread's entry into the parallel region after the
//   master's fork (omp_fork), its exit before the master's join
//   (omp_management), at the region's call path;
// - lock contention: an acquisition waits from the entry of the region
//   that holds it until the previous acquisition of the same lock was
//   released, at a critical construct or a lock function.
// Each is claimed from the time class of its region (metric_claims.hpp).
#pragma once

#include <span>

#include "analyses/local_cube.hpp"
#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

// `cubes[t]` is thread t's cube (the master's first).
void book_openmp_wait_states(const trace::LocalTrace& trace, const ThreadTeams& teams, std::span<LocalCube* const> cubes);

// Whether a lock taken in `region` is a critical section's (else the lock
// API's): OpenMP's critical construct or its body, by role or by name.
bool is_critical_lock_region(const Region& region);

}  // namespace hindsight::analyses
