// The profile of an OpenMP worker thread: its visits and exclusive time per
// call path, split into the time classes as the master's profile is
// (profile/profile.hpp). As Scalasca books it, a worker has time only in
// its teams: its parallel region lasts from the master's fork to the
// master's join (its late start and early end are the region's own time,
// which the management metrics then claim), and its call paths hang below
// the master's path at the fork, which the worker itself never visits.
// The messages and collective operations of the worker's MPI calls count
// there too (sends, receives, bytes), whether paired or not, and so do its
// one-sided transfers and the bytes of its file reads and writes.
#pragma once

#include <cstddef>
#include <vector>

#include "analyses/time_shift.hpp"
#include "analyses/local_cube.hpp"
#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

// The worker's exclusive time by call path, in ticks, as the profile
// books it (the critical path's activities read it too).
std::vector<Ticks> worker_exclusive_ticks(const trace::LocalTrace& trace, std::size_t thread, const ThreadTeams& teams);

// Books the worker's profile; returns its exclusive time by call path, in ticks.
std::vector<Ticks> book_worker_profile(const trace::LocalTrace& trace, std::size_t thread, const ThreadTeams& teams,
                                       LocalCube& cube);

// The same rule on the master: its parallel region, too, lasts from its fork
// to its join, so the time between the fork and its entry into the region,
// and between its exit and the join (the team's start and end), moves from
// the enclosing call path to the region's. `exclusive` is the master's
// exclusive time by call path in ticks, moved alike.
void book_master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams, LocalCube& master,
                            std::vector<Ticks>& exclusive);
// The same move on the ticks alone.
void move_master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams, std::vector<Ticks>& exclusive);

// Those stretches of the master's time (fork to entry, exit to join), each
// from the enclosing call path to the region's: what the MPI delay
// analysis's intervals move likewise.
std::vector<TimeShift> master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams);

}  // namespace hindsight::analyses
