#include "analyses/openmp/openmp_analysis.hpp"

#include "analyses/openmp/thread_profile.hpp"
#include "analyses/openmp/thread_teams.hpp"

namespace hindsight::analyses {

ThreadFindings analyze_threads(const trace::LocalTrace& trace, LocalCube& master) {
    ThreadFindings findings;
    if (trace.threads.size() < 2) return findings;
    (void)master;
    const ThreadTeams teams = find_thread_teams(trace);
    for (std::size_t t = 1; t < trace.threads.size(); ++t) {
        LocalCube& cube = findings.workers.emplace_back(trace.call_tree.size());
        book_worker_profile(trace, t, teams, cube);
    }
    findings.problems = teams.problems;
    return findings;
}

}  // namespace hindsight::analyses
