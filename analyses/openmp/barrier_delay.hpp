// Delay costs of OpenMP barrier waits (delay_ompbarrier): at each barrier
// the thread that entered last delayed the others. For each waiting
// thread, the last thread's time per call path since the team's previous
// synchronization (the fork for the region's first barrier, else the
// previous barrier's end on each thread) is compared with the waiting
// thread's; the last thread's excesses and its own waiting there share the
// wait (Böhme et al., TOPC 2016, Algorithm 1, as in cost_shares.hpp): each
// excess short-term, booked on the last thread where it spent it; each
// wait of the last thread long-term, passed on to that wait's cause. A
// thread that entered the region after the fork counts that late start at
// the region's call path.
//
// The last thread's waits in such an interval are the master's MPI waits
// inside the region (MasterMpiWait): the barrier waits they prolonged go to
// the MPI delay analysis as those waits' long-term costs (kOmpBarrierCosts,
// cost_kinds.hpp), which carries them to the rank that delayed the master
// and books them there under delay_ompbarrier_longterm (seed 001, §7: an
// MPI wait of the master keeps its team waiting).
//
// The other way round, a thread's barrier wait may explain a later MPI
// wait (it lay in the synchronization interval of that wait on the
// thread), and then carries that wait's costs and the worker idleness
// during it (the MPI delay analysis hands them over: BarrierWaitCosts).
// They are divided over the last thread's excesses like the wait itself and
// booked there under the long-term metric of the kind they started as.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "analyses/cost_kinds.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/thread_teams.hpp"
#include "analyses/wait_states.hpp"

namespace hindsight::analyses {

// The long-term costs one of a thread's barrier waits received.
struct BarrierWaitCosts {
    std::size_t region = 0;   // index into ThreadTeams::regions
    std::size_t barrier = 0;  // the barrier's number in the region
    std::uint32_t thread = 0;  // the thread that waited
    PatternCosts costs{};     // ticks, by kind (cost_shares.hpp)
};

// A wait of the master in an MPI call inside a parallel region whose costs
// the MPI delay analysis passes on (has_delay_costs()).
struct MasterMpiWait {
    trace::EventIndex event = trace::kNoEvent;  // its wait state's event: the delay analysis's key
    Ticks begin = 0;                            // where the waiting began
    Ticks waiting = 0;
    CallPathId cnode = kNoCallPath;             // the MPI call it waited in
};

// In the order they began.
std::vector<MasterMpiWait> master_mpi_waits(const trace::LocalTrace& trace, const ThreadTeams& teams,
                                            const WaitStateMap& waits);

// The long-term costs (ticks) each of `mpi_waits` takes from the barrier
// waits of the team it kept waiting, by its event, for the MPI delay
// analysis to pass on; only waits that took some.
std::vector<std::pair<trace::EventIndex, double>> barrier_costs_of_mpi_waits(
    const trace::LocalTrace& trace, const ThreadTeams& teams, std::span<const MasterMpiWait> mpi_waits);

// `mpi_waits`: the master's MPI waits whose share of the barrier waits went
// to the MPI delay analysis (barrier_costs_of_mpi_waits()); none where it
// did not run, and then the master's time in them counts as its work.
void book_barrier_delay_costs(const trace::LocalTrace& trace, const ThreadTeams& teams,
                              std::span<const BarrierWaitCosts> inherited_costs,
                              std::span<const MasterMpiWait> mpi_waits, std::span<LocalCube* const> cubes);

}  // namespace hindsight::analyses
