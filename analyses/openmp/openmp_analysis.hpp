// The OpenMP analysis of one rank (doc/analyzer.md, hybrid traces): the
// profile of each worker thread and the OpenMP patterns of every thread.
// All threads of a rank are in its own trace, so it needs no communication.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyses/local_cube.hpp"
#include "analyses/openmp/barrier_delay.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyses {

struct ThreadFindings {
    // The cubes of the worker threads, in the order of trace.threads (the
    // master's values go into the rank's cube).
    std::vector<LocalCube> workers;
    // What did not fit Score-P's conventions and was left out, one line each.
    std::vector<std::string> problems;
};

// `master` is the rank's cube, which the other analyses write too (its MPI
// wait states must be in it), `master_exclusive` the master's exclusive
// time by call path (ticks, the profile's).
// `inherited_costs`: the long-term costs the MPI delay analysis passed to
// the threads' barrier waits, `mpi_waits` the master's MPI waits inside
// parallel regions that took their share of the barrier waits to it
// (barrier_delay.hpp; none where it did not run).
ThreadFindings analyze_threads(const trace::LocalTrace& trace, LocalCube& master,
                               const std::vector<Ticks>& master_exclusive,
                               std::span<const BarrierWaitCosts> inherited_costs = {},
                               std::span<const MasterMpiWait> mpi_waits = {});

}  // namespace hindsight::analyses
