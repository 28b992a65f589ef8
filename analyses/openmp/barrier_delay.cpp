#include "analyses/openmp/barrier_delay.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "analyses/event_gaps.hpp"

namespace hindsight::analyses {
namespace {

// A stretch of a thread's time in one call path: between two of its
// consecutive events, in the call path of the innermost open region.
struct Segment {
    Ticks from = 0;
    Ticks to = 0;
    CallPathId cnode = kNoCallPath;
};

std::vector<Segment> segments_of(const trace::ThreadStream& stream) {
    std::vector<Segment> segments;
    std::vector<CallPathId> open;
    Ticks last = 0;
    for (const trace::ThreadEvent& e : stream.events) {
        if (!open.empty() && e.time > last) segments.push_back({last, e.time, open.back()});
        last = e.time;
        if (e.kind == trace::ThreadEventKind::Enter) open.push_back(e.cnode);
        else if (e.kind == trace::ThreadEventKind::Leave && !open.empty()) open.pop_back();
    }
    return segments;
}

// A thread's time per call path in [from, to), with its time between the
// fork and its entry into the region counted at the region.
std::map<CallPathId, Ticks> time_in(const std::vector<Segment>& segments, const ParallelRegion& region,
                                    const ThreadPart& part, Ticks from, Ticks to) {
    std::map<CallPathId, Ticks> time;
    if (from < part.enter && region.fork < part.enter)
        time[part.region] += std::min(to, part.enter) - std::max(from, region.fork);
    const Ticks start = std::max(from, part.enter);
    auto it = std::lower_bound(segments.begin(), segments.end(), start,
                               [](const Segment& s, Ticks t) { return s.to <= t; });
    for (; it != segments.end() && it->from < to; ++it) {
        const Ticks a = std::max(it->from, start), b = std::min(it->to, to);
        if (b > a) time[it->cnode] += b - a;
    }
    return time;
}

}  // namespace

void book_barrier_delay_costs(const trace::LocalTrace& trace, const ThreadTeams& teams,
                              std::span<const MasterBarrierCosts> master_costs, std::span<LocalCube* const> cubes) {
    std::vector<std::vector<Segment>> segments;
    for (const trace::ThreadStream& stream : trace.threads.threads)
        segments.push_back(segments_of(stream));
    const auto inherited = [&](std::size_t region, std::size_t barrier) -> const PatternCosts* {
        for (const MasterBarrierCosts& c : master_costs)
            if (c.region == region && c.barrier == barrier) return &c.costs;
        return nullptr;
    };
    for (std::size_t r = 0; r < teams.regions.size(); ++r) {
        const ParallelRegion& region = teams.regions[r];
        const std::size_t threads = region.threads.size();
        if (!barriers_pair_up(region)) continue;  // the analysis's problems say so
        for (std::size_t b = 0; b < region.threads.front().barriers.size(); ++b) {
            std::size_t last = 0;
            for (std::size_t t = 1; t < threads; ++t)
                if (region.threads[t].barriers[b].enter > region.threads[last].barriers[b].enter) last = t;
            const auto since = [&](std::size_t t) {
                return b == 0 ? region.fork : region.threads[t].barriers[b - 1].leave;
            };
            const ThreadPart& late = region.threads[last];
            const auto delayer = time_in(segments[last], region, late, since(last), late.barriers[b].enter);
            for (std::size_t t = 0; t < threads; ++t) {
                const ThreadPart& part = region.threads[t];
                const Ticks wait = late.barriers[b].enter - part.barriers[b].enter;
                if (t == last || wait <= 0) continue;
                const auto waiter = time_in(segments[t], region, part, since(t), part.barriers[b].enter);
                std::map<CallPathId, Ticks> excess;
                Ticks total = 0;
                for (const auto& [cnode, ticks] : delayer) {
                    const auto mine = waiter.find(cnode);
                    const Ticks more = ticks - (mine == waiter.end() ? 0 : mine->second);
                    if (more > 0) {
                        excess[cnode] = more;
                        total += more;
                    }
                }
                if (total == 0) continue;  // nothing the last thread did more explains the wait
                const double scale = trace.seconds(wait) / static_cast<double>(total);
                for (const auto& [cnode, more] : excess)
                    cubes[last]->add(Metric::DelayOmpBarrier, cnode, static_cast<double>(more) * scale);
                const PatternCosts* costs = t == 0 ? inherited(r, b) : nullptr;
                if (!costs) continue;
                for (std::size_t kind = 0; kind < kCostKinds; ++kind) {
                    if (!((*costs)[kind] > 0)) continue;
                    const double long_scale = ticks_to_seconds(trace, (*costs)[kind]) / static_cast<double>(total);
                    for (const auto& [cnode, more] : excess)
                        cubes[last]->add(long_term_metric(kind), cnode, static_cast<double>(more) * long_scale);
                }
            }
        }
    }
}

}  // namespace hindsight::analyses
