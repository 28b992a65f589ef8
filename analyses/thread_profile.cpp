#include "analyses/thread_profile.hpp"

#include <utility>
#include <vector>

#include "analyses/message_counts.hpp"
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
    const ParallelRegion* team = nullptr;
    std::size_t team_depth = 0;
    for (const trace::ThreadEvent& e : trace.threads.threads[thread].events) {
        switch (e.kind) {
        case trace::ThreadEventKind::TeamBegin: {
            const std::optional<std::size_t> region = team_region(teams, e.time);
            team = region ? &teams.regions[*region] : nullptr;
            team_depth = open.size();
            break;
        }
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
    // The worker's own MPI operations count on the worker, as the master's
    // count in the forward pass (message_counts.hpp).
    for (const trace::ThreadTransfer& t : trace.threads.threads[thread].transfers) {
        if (t.kind == trace::ThreadTransfer::Kind::Collective) {
            if (trace::is_program_collective(t.op)) count_collective(cube, t.cnode, t.sent, t.received);
        } else if (t.kind == trace::ThreadTransfer::Kind::Send) {
            count_message(cube, t.cnode, t.sent, true);
        } else {
            count_message(cube, t.cnode, t.received, false);
        }
    }
    for (const trace::ThreadRmaTransfer& t : trace.threads.threads[thread].rma_transfers)
        count_rma_transfer(cube, t.cnode, t.kind, t.bytes_sent, t.bytes_received);
    for (const trace::ThreadFileTransfer& t : trace.threads.threads[thread].file_transfers)
        count_file_transfer(cube, t.cnode, t.read, t.bytes);
    return std::move(profile.exclusive);
}

std::vector<TimeShift> master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams) {
    std::vector<TimeShift> edges;
    for (const ParallelRegion& region : teams.regions) {
        const ThreadPart& part = region.threads.front();
        if (!part.present) continue;
        const CallPathId enclosing = trace.call_tree.node(part.region).parent;
        if (enclosing == kNoCallPath) continue;
        if (part.enter > region.fork) edges.push_back({region.fork, part.enter, enclosing, part.region});
        if (region.join > part.leave) edges.push_back({part.leave, region.join, enclosing, part.region});
    }
    return edges;
}

void move_master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams, std::vector<Ticks>& exclusive) {
    for (const TimeShift& edge : master_team_edges(trace, teams)) {
        exclusive[edge.from] -= edge.end - edge.begin;
        exclusive[edge.to] += edge.end - edge.begin;
    }
}

void book_master_team_edges(const trace::LocalTrace& trace, const ThreadTeams& teams, LocalCube& master,
                            std::vector<Ticks>& exclusive) {
    for (const TimeShift& edge : master_team_edges(trace, teams)) {
        const Ticks moved = edge.end - edge.begin;
        exclusive[edge.from] -= moved;
        exclusive[edge.to] += moved;
        master.add(time_category(trace.region_of(edge.from)), edge.from, -trace.seconds(moved));
        master.add(time_category(trace.region_of(edge.to)), edge.to, trace.seconds(moved));
    }
}

}  // namespace hindsight::analyses
