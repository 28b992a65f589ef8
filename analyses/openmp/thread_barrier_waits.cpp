#include "analyses/openmp/thread_barrier_waits.hpp"

#include <algorithm>
#include <utility>

namespace hindsight::analyses {
namespace {

// Pairs each wait, in trace order, with its visit among the thread's
// events (equally in trace order): the Enter at its entry time in its call
// path, and that Enter's Leave. A visit the events do not show (none should
// be missing) is dropped.
template <typename Events, typename IsEnter, typename LeaveOf>
void find_visits(std::vector<ThreadBarrierWait>& waits, const std::vector<std::pair<Ticks, CallPathId>>& visits,
                 const Events& events, IsEnter is_enter, LeaveOf leave_of) {
    std::size_t next = 0;
    for (trace::EventIndex i = 0; i < events.size() && next < waits.size(); ++i) {
        const auto& e = events[i];
        if (!is_enter(e) || e.time != visits[next].first || e.cnode != visits[next].second) continue;
        waits[next].enter = i;
        waits[next].leave = leave_of(i);
        ++next;
    }
    std::erase_if(waits, [](const ThreadBarrierWait& w) {
        return w.enter == trace::kNoEvent || w.leave == trace::kNoEvent;
    });
}

}  // namespace

std::vector<ThreadBarrierWait> thread_barrier_waits(const trace::LocalTrace& trace, const ThreadTeams& teams,
                                                    std::uint32_t thread) {
    std::vector<ThreadBarrierWait> waits;
    // The visits as the thread stream shows them: call path and entry time
    // find the same visit among the thread's events.
    std::vector<std::pair<Ticks, CallPathId>> visits;
    for (std::size_t r = 0; r < teams.regions.size(); ++r) {
        const ParallelRegion& region = teams.regions[r];
        if (!barriers_pair_up(region) || thread >= region.threads.size() || !region.threads[thread].present)
            continue;
        const std::vector<BarrierVisit>& mine = region.threads[thread].barriers;
        for (std::size_t b = 0; b < mine.size(); ++b) {
            const Ticks wait = mine[b].waiting_until(last_arrival(region, b));
            if (wait <= 0) continue;
            waits.push_back({r, b, thread, trace::kNoEvent, trace::kNoEvent, wait});
            visits.emplace_back(mine[b].enter, mine[b].cnode);
        }
    }
    if (thread == 0) {
        find_visits(
            waits, visits, trace.events, [](const trace::Event& e) { return e.kind == trace::EventKind::Enter; },
            [&](trace::EventIndex i) { return trace.events[i].ref; });
        return waits;
    }
    const std::vector<trace::ThreadEvent>& events = trace.threads.threads[thread].events;
    find_visits(
        waits, visits, events, [](const trace::ThreadEvent& e) { return e.kind == trace::ThreadEventKind::Enter; },
        [&](trace::EventIndex i) {
            // The first Leave of its call path: the regions nested in a
            // barrier (the tasks it ran) are its children.
            for (trace::EventIndex k = i + 1; k < events.size(); ++k)
                if (events[k].kind == trace::ThreadEventKind::Leave && events[k].cnode == events[i].cnode) return k;
            return trace::kNoEvent;
        });
    return waits;
}

}  // namespace hindsight::analyses
