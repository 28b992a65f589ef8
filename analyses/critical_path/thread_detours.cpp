#include "analyses/critical_path/thread_detours.hpp"

#include <algorithm>
#include <optional>

#include "analyses/thread_profile.hpp"

namespace hindsight::analyses {
namespace {

using trace::EventIndex;

// The thread that entered barrier `b` last; of several at the same moment
// the lowest numbered, so that the path stays one.
std::size_t last_thread(const ParallelRegion& region, std::size_t b) {
    const Ticks last = last_arrival(region, b);
    std::size_t t = 0;
    while (!region.threads[t].present || region.threads[t].barriers[b].enter != last) ++t;
    return t;
}

// The master's Enter events of each region instance and of its barriers:
// [region][0] the parallel region, [region][1 + b] barrier b; kNoEvent
// where its events do not show them.
std::vector<std::vector<EventIndex>> master_enters(const trace::LocalTrace& trace, const ThreadTeams& teams) {
    std::vector<std::vector<EventIndex>> found(teams.regions.size());
    EventIndex k = 0;
    const auto next_enter = [&](CallPathId cnode, Ticks time) {
        // The thread stream repeats the master's visits in the same order.
        while (k < trace.events.size() && trace.events[k].time <= time) {
            const trace::Event& e = trace.events[k++];
            if (e.kind == trace::EventKind::Enter && e.cnode == cnode && e.time == time) return k - 1;
        }
        return trace::kNoEvent;
    };
    for (std::size_t r = 0; r < teams.regions.size(); ++r) {
        const ThreadPart& master = teams.regions[r].threads.front();
        if (!master.present) continue;
        found[r].push_back(next_enter(master.region, master.enter));
        for (const BarrierVisit& barrier : master.barriers) found[r].push_back(next_enter(barrier.cnode, barrier.enter));
    }
    return found;
}

// The path from thread t at `to`, before its barrier `at` of the region
// (at = its number of barriers: after the last), back to the master: the
// stretches into `d`, and where the master takes the path back.
void back_to_master(const ParallelRegion& region, const std::vector<EventIndex>& enters, std::size_t t,
                    std::size_t at, Ticks to, ThreadDetour& d) {
    for (;;) {
        if (t == 0) {
            d.back = enters[1 + at];
            d.position = region.threads[0].barriers[at].enter;
            return;
        }
        const ThreadPart& part = region.threads[t];
        if (at == 0) {
            d.stretches.push_back({t, region.fork, to, part.region, part.enter});
            d.back = enters[0];
            d.position = region.fork;
            return;
        }
        const std::size_t previous = at - 1;
        const Ticks last = last_arrival(region, previous);
        // The previous barrier after its last arrival, and what follows.
        d.stretches.push_back({t, last, to, part.region, part.enter});
        if (part.barriers[previous].enter < last) t = last_thread(region, previous);
        at = previous;
        to = region.threads[t].barriers[at].enter;
    }
}

// The path from barrier `b`, where the master waited, back to the master.
ThreadDetour detour(const ParallelRegion& region, const std::vector<EventIndex>& enters, std::size_t b) {
    ThreadDetour d{enters[1 + b], last_arrival(region, b), trace::kNoEvent, 0, {}};
    const std::size_t t = last_thread(region, b);
    back_to_master(region, enters, t, b, region.threads[t].barriers[b].enter, d);
    return d;
}

// Whether the detours of the region can be followed: its threads meet at
// each barrier and the master's events show the region and its barriers.
bool can_follow(const ParallelRegion& region, const std::vector<EventIndex>& enters) {
    return barriers_pair_up(region) && std::find(enters.begin(), enters.end(), trace::kNoEvent) == enters.end();
}

}  // namespace

ThreadDetours::ThreadDetours(const trace::LocalTrace& trace, const ThreadTeams& teams)
    : teams_(&teams), enters_(master_enters(trace, teams)) {
    for (std::size_t r = 0; r < teams.regions.size(); ++r) {
        const ParallelRegion& region = teams.regions[r];
        if (!can_follow(region, enters_[r])) continue;
        for (std::size_t b = 0; b < region.threads.front().barriers.size(); ++b)
            if (region.threads.front().barriers[b].enter < last_arrival(region, b))
                detours_.push_back(detour(region, enters_[r], b));
    }
    std::sort(detours_.begin(), detours_.end(),
              [](const ThreadDetour& a, const ThreadDetour& b) { return a.point < b.point; });

    pieces_.resize(trace.threads.size());
    for (std::size_t t = 1; t < trace.threads.size(); ++t) {
        std::vector<CallPathId> open;
        Ticks last = 0;
        for (const trace::ThreadEvent& e : trace.threads.threads[t].events) {
            if (!open.empty() && e.time > last) pieces_[t].push_back({last, e.time, open.back()});
            last = e.time;
            if (e.kind == trace::ThreadEventKind::Enter) open.push_back(e.cnode);
            else if (e.kind == trace::ThreadEventKind::Leave && !open.empty()) open.pop_back();
        }
    }
}

std::optional<ThreadDetour> ThreadDetours::from_worker(std::size_t thread, Ticks time) const {
    if (!teams_ || thread == 0) return std::nullopt;
    // The region the worker was in then: the last forked at or before it.
    const auto& regions = teams_->regions;
    const auto after = std::partition_point(regions.begin(), regions.end(),
                                            [&](const ParallelRegion& r) { return r.fork <= time; });
    if (after == regions.begin()) return std::nullopt;
    const auto r = static_cast<std::size_t>(after - regions.begin()) - 1;
    const ParallelRegion& region = regions[r];
    if (thread >= region.threads.size() || !region.threads[thread].present || time > region.join ||
        !can_follow(region, enters_[r]))
        return std::nullopt;
    const std::vector<BarrierVisit>& barriers = region.threads[thread].barriers;
    const auto at = static_cast<std::size_t>(
        std::partition_point(barriers.begin(), barriers.end(), [&](const BarrierVisit& b) { return b.enter < time; }) -
        barriers.begin());
    ThreadDetour d{trace::kNoEvent, time, trace::kNoEvent, 0, {}};
    back_to_master(region, enters_[r], thread, at, time, d);
    return d;
}

void ThreadDetours::add_time(const ThreadStretch& s, std::vector<double>& ticks) const {
    if (s.from < s.region_enter) ticks[s.region] += static_cast<double>(std::min(s.to, s.region_enter) - s.from);
    const Ticks from = std::max(s.from, s.region_enter);
    const std::vector<Piece>& pieces = pieces_[s.thread];
    auto it = std::lower_bound(pieces.begin(), pieces.end(), from, [](const Piece& p, Ticks t) { return p.to <= t; });
    for (; it != pieces.end() && it->from < s.to; ++it) {
        const Ticks a = std::max(it->from, from), b = std::min(it->to, s.to);
        if (b > a) ticks[it->cnode] += static_cast<double>(b - a);
    }
}

std::vector<double> worker_activity(const trace::LocalTrace& trace, const ThreadTeams& teams, std::size_t thread) {
    const std::vector<Ticks> exclusive = worker_exclusive_ticks(trace, thread, teams);
    std::vector<double> activity(exclusive.begin(), exclusive.end());
    for (const ParallelRegion& region : teams.regions) {
        if (!barriers_pair_up(region)) continue;
        const ThreadPart& part = region.threads[thread];
        for (std::size_t b = 0; b < part.barriers.size(); ++b) {
            const BarrierVisit& visit = part.barriers[b];
            const Ticks last = last_arrival(region, b);
            activity[visit.cnode] -= static_cast<double>(visit.waiting_until(last));
            // After the last arrival at the closing barrier the worker only
            // waits for the team's end: in the barrier, then in the region
            // until the master's join.
            const bool closing = b + 1 == part.barriers.size() && visit.kind == BarrierKind::Implicit;
            if (!closing) continue;
            if (visit.leave > last) activity[visit.cnode] -= static_cast<double>(visit.leave - last);
            if (region.join > std::max(visit.leave, last))
                activity[part.region] -= static_cast<double>(region.join - std::max(visit.leave, last));
        }
    }
    for (double& ticks : activity) ticks = std::max(ticks, 0.0);
    return activity;
}

void add_master_barrier_waits(const ThreadTeams& teams, std::vector<double>& waits) {
    for (const ParallelRegion& region : teams.regions) {
        if (!barriers_pair_up(region)) continue;
        const ThreadPart& master = region.threads.front();
        for (std::size_t b = 0; b < master.barriers.size(); ++b) {
            waits[master.barriers[b].cnode] +=
                static_cast<double>(master.barriers[b].waiting_until(last_arrival(region, b)));
        }
    }
}

}  // namespace hindsight::analyses
