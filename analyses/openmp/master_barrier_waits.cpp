#include "analyses/openmp/master_barrier_waits.hpp"

#include <algorithm>
#include <utility>

namespace hindsight::analyses {

std::vector<MasterBarrierWait> master_barrier_waits(const trace::LocalTrace& trace, const ThreadTeams& teams) {
    std::vector<MasterBarrierWait> waits;
    // The master's visits as its thread stream shows them: call path and
    // entry time find the same visit among the rank's events.
    std::vector<std::pair<Ticks, CallPathId>> visits;
    for (std::size_t r = 0; r < teams.regions.size(); ++r) {
        const ParallelRegion& region = teams.regions[r];
        if (!barriers_pair_up(region)) continue;
        const std::vector<BarrierVisit>& mine = region.threads.front().barriers;
        for (std::size_t b = 0; b < mine.size(); ++b) {
            const Ticks wait = mine[b].waiting_until(last_arrival(region, b));
            if (wait <= 0) continue;
            waits.push_back({r, b, trace::kNoEvent, trace::kNoEvent, wait});
            visits.emplace_back(mine[b].enter, mine[b].cnode);
        }
    }
    // Both in trace order: one walk over the events pairs them up.
    std::size_t next = 0;
    for (trace::EventIndex i = 0; i < trace.events.size() && next < waits.size(); ++i) {
        const trace::Event& e = trace.events[i];
        if (e.kind != trace::EventKind::Enter || e.time != visits[next].first || e.cnode != visits[next].second)
            continue;
        waits[next].enter = i;
        waits[next].leave = e.ref;
        ++next;
    }
    // A visit the events do not show (none should be missing) is dropped.
    std::erase_if(waits, [](const MasterBarrierWait& w) { return w.enter == trace::kNoEvent; });
    return waits;
}

}  // namespace hindsight::analyses
