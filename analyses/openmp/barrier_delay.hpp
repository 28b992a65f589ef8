// Short-term delay costs of OpenMP barrier waits (delay_ompbarrier): at
// each barrier the thread that entered last delayed the others. For each
// waiting thread, the last thread's time per call path since the team's
// previous synchronization (the fork for the region's first barrier, else
// the previous barrier's end on each thread) is compared with the waiting
// thread's; where the last thread spent more, the excess, scaled so that
// the excesses add up to the waiting time, is booked on the last thread.
// A thread that entered the region after the fork counts that late start
// at the region's call path.
#pragma once

#include <span>

#include "analyses/local_cube.hpp"
#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

void book_barrier_delay_costs(const trace::LocalTrace& trace, const ThreadTeams& teams,
                              std::span<LocalCube* const> cubes);

}  // namespace hindsight::analyses
