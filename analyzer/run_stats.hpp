// Measurements for --stats (benchmarks): per-phase wall time, the event
// store's size, and the process's peak memory.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::analyzer {

class RunStats {
public:
    // Starts the clock of the next phase.
    void phase(std::string name);
    // Collective over `world`: rank 0 prints each phase's maximum over
    // ranks, events per rank, bytes per event of the store (including the
    // side tables) and the largest peak resident size (VmHWM) of any rank.
    void report(std::ostream& out, const trace::LocalTrace& trace, MPI_Comm world, replay::ProgressWatch& watch);

private:
    std::vector<std::string> names_;
    std::vector<double> starts_;
};

// VmHWM of this process in KiB (0 when /proc does not tell).
std::uint64_t peak_resident_kib();

}  // namespace hindsight::analyzer
