// Short-term delay costs of OpenMP barrier waits (delay_ompbarrier): at
// each barrier the thread that entered last delayed the others. For each
// waiting thread, the last thread's time per call path since the team's
// previous synchronization (the fork for the region's first barrier, else
// the previous barrier's end on each thread) is compared with the waiting
// thread's; where the last thread spent more, the excess, scaled so that
// the excesses add up to the waiting time, is booked on the last thread.
// A thread that entered the region after the fork counts that late start
// at the region's call path.
//
// Long-term: the master's barrier wait may explain a later MPI wait (it lay
// in the synchronization interval of that wait on this rank), and then
// carries that wait's costs and the worker idleness during it (the MPI
// delay analysis hands them over: MasterBarrierCosts). They are divided
// over the last thread's excesses like the wait itself and booked there
// under the long-term metric of the kind they started as.
#pragma once

#include <span>

#include "analyses/cost_kinds.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

// The long-term costs one of the master's barrier waits received.
struct MasterBarrierCosts {
    std::size_t region = 0;   // index into ThreadTeams::regions
    std::size_t barrier = 0;  // the barrier's number in the region
    PatternCosts costs{};     // ticks, by kind (cost_shares.hpp)
};

void book_barrier_delay_costs(const trace::LocalTrace& trace, const ThreadTeams& teams,
                              std::span<const MasterBarrierCosts> master_costs, std::span<LocalCube* const> cubes);

}  // namespace hindsight::analyses
