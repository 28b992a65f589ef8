#include "analyses/thread_profile.hpp"

#include <utility>
#include <vector>

#include "common/time_category.hpp"

namespace hindsight::analyses {
namespace {

struct WorkerProfile {
    std::vector<Ticks> exclusive;
    std::vector<std::uint64_t> visits;
};

WorkerProfile worker_profile(const trace::LocalTrace& trace, std::size_t thread, const ThreadTeams& teams) {
    const std::size_t paths = trace.call_tree.size();
    WorkerProfile profile{std::vector<Ticks>(paths, 0), std::vector<std::uint64_t>(paths, 0)};
    struct Open {
        CallPathId cnode;
        Ticks enter;
        bool parallel;  // the team's parallel region: fork to join
    };
    std::vector<Open> open;
    std::size_t teams_begun = 0;
    const ParallelRegion* team = nullptr;
    std::size_t team_depth = 0;
    for (const trace::ThreadEvent& e : trace.threads.threads[thread].events) {
        switch (e.kind) {
        case trace::ThreadEventKind::TeamBegin:
            team = teams_begun < teams.regions.size() ? &teams.regions[teams_begun] : nullptr;
            ++teams_begun;
            team_depth = open.size();
            break;
        case trace::ThreadEventKind::TeamEnd:
            team = nullptr;
            break;
        case trace::ThreadEventKind::Enter:
            open.push_back({e.cnode, e.time, team && open.size() == team_depth});
            break;
        case trace::ThreadEventKind::Leave: {
            if (open.empty()) break;
            const Open region = open.back();
            open.pop_back();
            const Ticks duration = region.parallel ? team->join - team->fork : e.time - region.enter;
            profile.exclusive[region.cnode] += duration;
            ++profile.visits[region.cnode];
            // The enclosing visit, if the worker made it (not the master's
            // path at the fork), loses this visit's time.
            if (!region.parallel && !open.empty()) profile.exclusive[open.back().cnode] -= duration;
            break;
        }
        default:
            break;
        }
    }
    return profile;
}

// Calls `move(enclosing, region, ticks)` for the master's team start and
// end of every region.
template <typename Move>
void for_each_team_edge(const trace::LocalTrace& trace, const ThreadTeams& teams, Move move) {
    for (const ParallelRegion& region : teams.regions) {
        const ThreadPart& part = region.threads.front();
        if (!part.present) continue;
        const CallPathId enclosing = trace.call_tree.node(part.region).parent;
        if (enclosing == kNoCallPath) continue;
        const Ticks edges = (part.enter > region.fork ? part.enter - region.fork : 0) +
                            (region.join > part.leave ? region.join - part.leave : 0);
        if (edges > 0) move(enclosing, part.region, edges);
    }
}

}  // namespace

std::vector<Ticks> worker_exclusive_ticks(const trace::LocalTrace& trace, std::size_t thread, const ThreadTeams& teams) {
    return worker_profile(trace, thread, teams).exclusive;
}

std::vector<Ticks> book_worker_profile(const trace::LocalTrace& trace, std::size_t thread, const ThreadTeams& teams,
                                       LocalCube& cube) {
    WorkerProfile profile = worker_profile(trace, thread, teams);
    for (CallPathId c = 0; c < profile.visits.size(); ++c) {
        if (profile.visits[c] == 0) continue;
        cube.add(Metric::Visits, c, static_cast<double>(profile.visits[c]));
        cube.add(time_category(trace.region_of(c)), c, trace.seconds(profile.exclusive[c]));
    }
    return std::move(profile.exclusive);
}

void book_master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams, LocalCube& master,
                            std::vector<Ticks>& exclusive) {
    for_each_team_edge(trace, teams, [&](CallPathId enclosing, CallPathId region, Ticks edges) {
        exclusive[enclosing] -= edges;
        exclusive[region] += edges;
        master.add(time_category(trace.region_of(enclosing)), enclosing, -trace.seconds(edges));
        master.add(time_category(trace.region_of(region)), region, trace.seconds(edges));
    });
}

void move_master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams, std::vector<Ticks>& exclusive) {
    for_each_team_edge(trace, teams, [&](CallPathId enclosing, CallPathId region, Ticks edges) {
        exclusive[enclosing] -= edges;
        exclusive[region] += edges;
    });
}

}  // namespace hindsight::analyses
