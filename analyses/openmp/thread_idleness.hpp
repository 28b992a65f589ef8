// Idle worker threads and what causes them (doc/metrics.md):
// - omp_idle_threads: while the master runs outside parallel regions, each
//   worker idles; booked on the worker at the master's call path, for the
//   master's exclusive time there;
// - omp_limited_parallelism: per outermost parallel region, the master's
//   time in it that a worker did not spend in it (0 when every thread
//   takes part from fork to join);
// - delay_ompidle (short-term idleness costs): the master's own work in
//   its serial phases keeps (threads - 1) workers idle; booked on the
//   master at the call path of that work, without its MPI wait states
//   (what made the master wait is charged elsewhere).
#pragma once

#include <span>
#include <vector>

#include "analyses/local_cube.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

// Whether each call path lies in a parallel region (the region included).
std::vector<bool> parallel_call_paths(const trace::LocalTrace& trace);

// `exclusive[t]` is thread t's exclusive time by call path (ticks), `cubes[t]`
// its cube; the master's cube must hold its MPI wait states already.
void book_thread_idleness(const trace::LocalTrace& trace, std::span<const std::vector<Ticks>* const> exclusive,
                          std::span<LocalCube* const> cubes);

}  // namespace hindsight::analyses
