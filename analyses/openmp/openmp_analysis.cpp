#include "analyses/openmp/openmp_analysis.hpp"

#include "analyses/openmp/barrier_delay.hpp"
#include "analyses/openmp/openmp_wait_states.hpp"
#include "analyses/openmp/thread_idleness.hpp"
#include "analyses/thread_profile.hpp"
#include "analyses/thread_teams.hpp"

namespace hindsight::analyses {

ThreadFindings analyze_threads(const trace::LocalTrace& trace, LocalCube& master,
                               const std::vector<Ticks>& master_exclusive,
                               std::span<const BarrierWaitCosts> inherited_costs,
                               std::span<const MasterMpiWait> mpi_waits) {
    ThreadFindings findings;
    if (trace.threads.size() < 2) return findings;
    const ThreadTeams teams = find_thread_teams(trace);
    findings.workers.reserve(trace.threads.size() - 1);
    std::vector<std::vector<Ticks>> worker_exclusive;
    for (std::size_t t = 1; t < trace.threads.size(); ++t) {
        LocalCube& cube = findings.workers.emplace_back(trace.call_tree.size());
        worker_exclusive.push_back(book_worker_profile(trace, t, teams, cube));
    }
    std::vector<Ticks> master_time = master_exclusive;
    book_master_team_edges(trace, teams, master, master_time);
    std::vector<LocalCube*> cubes{&master};
    std::vector<const std::vector<Ticks>*> exclusive{&master_time};
    for (std::size_t w = 0; w < findings.workers.size(); ++w) {
        cubes.push_back(&findings.workers[w]);
        exclusive.push_back(&worker_exclusive[w]);
    }
    book_openmp_wait_states(trace, teams, cubes);
    book_barrier_delay_costs(trace, teams, inherited_costs, mpi_waits, cubes);
    book_thread_idleness(trace, exclusive, cubes);
    findings.problems = teams.problems;
    for (const ParallelRegion& region : teams.regions) {
        if (!barriers_pair_up(region)) {
            findings.problems.push_back("rank " + std::to_string(trace.rank) +
                                        ": a parallel region whose threads do not all take part in it and in each of "
                                        "its barriers is left out of the OpenMP barrier analysis");
            break;
        }
    }
    return findings;
}

}  // namespace hindsight::analyses
