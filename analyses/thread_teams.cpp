#include "analyses/thread_teams.hpp"

#include <algorithm>
#include <optional>

namespace hindsight::analyses {
namespace {

// "!$omp barrier" or "!$omp barrier @file:line", not "!$omp barrierx".
bool is_construct(std::string_view name, std::string_view construct) {
    if (!name.starts_with(construct)) return false;
    const std::string_view rest = name.substr(construct.size());
    return rest.empty() || rest.starts_with(" @");
}

struct OpenRegion {
    CallPathId cnode = kNoCallPath;
    Ticks enter = 0;
    std::optional<std::size_t> barrier;  // index into the part's barriers
    bool parallel = false;               // the team's parallel region
    bool task = false;                   // an explicit task's region
};

constexpr std::size_t kNoBarrier = static_cast<std::size_t>(-1);
constexpr std::size_t kNoTeam = static_cast<std::size_t>(-1);

// The innermost barrier among the open regions (kNoBarrier: none).
std::size_t innermost_barrier(const std::vector<OpenRegion>& open) {
    for (auto it = open.rbegin(); it != open.rend(); ++it)
        if (it->barrier) return *it->barrier;
    return kNoBarrier;
}

// Reads one thread's stream into `teams` (its parts, acquisitions and
// releases); the master (thread 0) also makes the region instances.
void read_thread(const trace::LocalTrace& trace, std::size_t thread, ThreadTeams& teams) {
    const trace::ThreadStream& stream = trace.threads.threads[thread];
    const std::size_t threads = trace.threads.size();
    std::vector<OpenRegion> open;
    std::size_t team_depth = 0;           // open regions at the team's begin
    std::size_t team = kNoTeam;           // the region instance of the team in progress
    std::size_t forks = 0, joins = 0;
    // The outermost task region open (tasks nest in the ones they suspend)
    // and the barrier it runs in.
    std::size_t open_tasks = 0;
    std::size_t task_barrier = kNoBarrier;
    Ticks task_begin = 0;
    bool warned = false;
    const auto problem = [&](const std::string& what) {
        if (!warned) teams.problems.push_back("rank " + std::to_string(trace.rank) + ", " + stream.name + ": " + what);
        warned = true;
    };
    for (const trace::ThreadEvent& e : stream.events) {
        switch (e.kind) {
        case trace::ThreadEventKind::Fork:
            if (thread == 0) {
                teams.regions.push_back({e.time, e.time, std::vector<ThreadPart>(threads)});
                ++forks;
            }
            break;
        case trace::ThreadEventKind::Join:
            if (thread == 0 && joins < teams.regions.size()) teams.regions[joins++].join = e.time;
            break;
        case trace::ThreadEventKind::TeamBegin:
            if (team != kNoTeam)
                problem("a thread team begins inside another (nested parallel regions are not analyzed)");
            // The master's own team is of the region it forked last (its
            // join is still to come).
            if (thread == 0) team = teams.regions.empty() ? kNoTeam : teams.regions.size() - 1;
            else team = team_region(teams, e.time).value_or(kNoTeam);
            if (team != kNoTeam) teams.regions[team].threads[thread].member = true;
            else problem("a thread team outside its master's parallel regions");
            team_depth = open.size();
            task_barrier = kNoBarrier;
            break;
        case trace::ThreadEventKind::TeamEnd:
            team = kNoTeam;
            task_barrier = kNoBarrier;
            break;
        case trace::ThreadEventKind::Enter: {
            OpenRegion region{e.cnode, e.time, std::nullopt, false};
            if (team != kNoTeam) {
                ThreadPart& part = teams.regions[team].threads[thread];
                const std::string& name = trace.region_of(e.cnode).name;
                if (open.size() == team_depth && !part.present) {
                    part.present = true;
                    part.region = e.cnode;
                    part.enter = e.time;
                    region.parallel = true;
                } else if (const BarrierKind kind = barrier_kind(name); kind != BarrierKind::None && part.present) {
                    region.barrier = part.barriers.size();
                    part.barriers.push_back({e.cnode, e.time, e.time, kind, {}});
                }
            }
            if (is_task_region(trace.region_of(e.cnode))) {
                region.task = true;
                if (open_tasks++ == 0 && team != kNoTeam) {
                    task_barrier = innermost_barrier(open);
                    task_begin = e.time;
                }
            }
            open.push_back(region);
            break;
        }
        case trace::ThreadEventKind::Leave:
            if (open.empty()) break;  // the loader pairs them; nothing to undo here
            if (team != kNoTeam) {
                ThreadPart& part = teams.regions[team].threads[thread];
                if (open.back().parallel) part.leave = e.time;
                if (open.back().barrier) part.barriers[*open.back().barrier].leave = e.time;
                if (open.back().task && open_tasks == 1 && task_barrier != kNoBarrier)
                    part.barriers[task_barrier].tasks.push_back({task_begin, e.time});
            }
            if (open.back().task && --open_tasks == 0) task_barrier = kNoBarrier;
            open.pop_back();
            break;
        case trace::ThreadEventKind::Acquire:
            teams.acquisitions[thread].push_back({e.value, e.order, open.empty() ? e.cnode : open.back().cnode,
                                                  open.empty() ? e.time : open.back().enter});
            break;
        case trace::ThreadEventKind::Release:
            teams.releases.push_back({e.value, e.order, e.time});
            break;
        }
    }
    if (thread == 0 && joins != forks) problem("forks and joins do not pair up");
}

}  // namespace

BarrierKind barrier_kind(std::string_view name) {
    if (is_construct(name, "!$omp barrier")) return BarrierKind::Explicit;
    if (is_construct(name, "!$omp implicit barrier") || is_construct(name, "!$omp ibarrier"))
        return BarrierKind::Implicit;
    return BarrierKind::None;
}

bool barriers_pair_up(const ParallelRegion& region) {
    if (region.threads.empty() || !region.threads.front().present) return false;
    for (const ThreadPart& part : region.threads)
        if ((part.member || part.present) &&
            (!part.present || part.barriers.size() != region.threads.front().barriers.size()))
            return false;
    return true;
}

Ticks last_arrival(const ParallelRegion& region, std::size_t b) {
    Ticks last = 0;
    for (const ThreadPart& part : region.threads)
        if (part.present) last = std::max(last, part.barriers[b].enter);
    return last;
}

bool is_parallel_construct(std::string_view name) { return is_construct(name, "!$omp parallel"); }

bool is_task_region(const Region& region) {
    return region.role == RegionRole::Task || is_construct(region.name, "!$omp task") ||
           is_construct(region.name, "!$omp untied task");
}

Ticks BarrierVisit::waiting_until(Ticks last) const {
    Ticks waited = last - enter;
    for (const TaskRun& run : tasks) waited -= std::max<Ticks>(0, std::min(run.end, last) - std::max(run.begin, enter));
    return std::max<Ticks>(0, waited);
}

std::optional<std::size_t> team_region(const ThreadTeams& teams, Ticks begin) {
    const auto after = std::upper_bound(teams.regions.begin(), teams.regions.end(), begin,
                                        [](Ticks t, const ParallelRegion& r) { return t < r.fork; });
    if (after == teams.regions.begin() || begin > std::prev(after)->join) return std::nullopt;
    return static_cast<std::size_t>(std::prev(after) - teams.regions.begin());
}

ThreadTeams find_thread_teams(const trace::LocalTrace& trace) {
    ThreadTeams teams;
    teams.acquisitions.resize(trace.threads.size());
    for (std::size_t t = 0; t < trace.threads.size(); ++t) read_thread(trace, t, teams);
    std::sort(teams.releases.begin(), teams.releases.end(), [](const auto& a, const auto& b) {
        return a.lock != b.lock ? a.lock < b.lock : a.order < b.order;
    });
    return teams;
}

}  // namespace hindsight::analyses
