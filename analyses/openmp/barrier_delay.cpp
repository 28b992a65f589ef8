#include "analyses/openmp/barrier_delay.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>
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

// One waiting thread's part in a barrier's delay costs: what the last
// thread did more since their previous synchronization (by call path), and
// the last thread's MPI waits there (by index into the master's MPI waits,
// with their waiting); the wait divides over both in proportion (`total`).
struct BarrierShare {
    std::size_t region = 0;
    std::size_t barrier = 0;
    std::size_t last = 0;
    std::size_t waiter = 0;
    Ticks wait = 0;
    std::map<CallPathId, Ticks> excess;
    std::vector<std::pair<std::size_t, Ticks>> mpi_waits;
    Ticks total = 0;
};

// Calls visit(share) for each thread that waited at a barrier of a region
// whose barriers pair up (the analysis's problems say so of the others),
// where the last thread did more than it or waited in MPI.
template <typename Visit>
void for_each_barrier_share(const trace::LocalTrace& trace, const ThreadTeams& teams,
                            std::span<const MasterMpiWait> mpi_waits, Visit&& visit) {
    std::vector<std::vector<Segment>> segments;
    for (const trace::ThreadStream& stream : trace.threads.threads) segments.push_back(segments_of(stream));
    for (std::size_t r = 0; r < teams.regions.size(); ++r) {
        const ParallelRegion& region = teams.regions[r];
        const std::size_t threads = region.threads.size();
        if (!barriers_pair_up(region)) continue;
        for (std::size_t b = 0; b < region.threads.front().barriers.size(); ++b) {
            BarrierShare share;
            share.region = r;
            share.barrier = b;
            for (std::size_t t = 1; t < threads; ++t)
                if (region.threads[t].present &&
                    region.threads[t].barriers[b].enter > region.threads[share.last].barriers[b].enter)
                    share.last = t;
            const auto since = [&](std::size_t t) {
                return b == 0 ? region.fork : region.threads[t].barriers[b - 1].leave;
            };
            const ThreadPart& late = region.threads[share.last];
            auto delayer = time_in(segments[share.last], region, late, since(share.last), late.barriers[b].enter);
            // The master's MPI waits in the interval are its waiting, not
            // its work.
            Ticks waited = 0;
            if (share.last == 0) {
                auto w = std::lower_bound(mpi_waits.begin(), mpi_waits.end(), since(0),
                                          [](const MasterMpiWait& m, Ticks t) { return m.begin < t; });
                for (; w != mpi_waits.end() && w->begin < late.barriers[b].enter; ++w) {
                    share.mpi_waits.emplace_back(static_cast<std::size_t>(w - mpi_waits.begin()), w->waiting);
                    waited += w->waiting;
                    Ticks& in_call = delayer[w->cnode];
                    in_call = std::max<Ticks>(0, in_call - w->waiting);
                }
            }
            for (std::size_t t = 0; t < threads; ++t) {
                const ThreadPart& part = region.threads[t];
                if (!part.present) continue;
                share.waiter = t;
                share.wait = part.barriers[b].waiting_until(late.barriers[b].enter);
                if (t == share.last || share.wait <= 0) continue;
                const auto waiter = time_in(segments[t], region, part, since(t), part.barriers[b].enter);
                share.excess.clear();
                share.total = waited;
                for (const auto& [cnode, ticks] : delayer) {
                    const auto mine = waiter.find(cnode);
                    const Ticks more = ticks - (mine == waiter.end() ? 0 : mine->second);
                    if (more > 0) {
                        share.excess[cnode] = more;
                        share.total += more;
                    }
                }
                if (share.total > 0) visit(share);  // else nothing the last thread did explains the wait
            }
        }
    }
}

}  // namespace

std::vector<MasterMpiWait> master_mpi_waits(const trace::LocalTrace& trace, const ThreadTeams& teams,
                                            const WaitStateMap& waits) {
    std::vector<MasterMpiWait> found;
    if (teams.regions.empty()) return found;
    waits.for_each_full_state([&](trace::EventIndex event, const WaitState& wait) {
        if (!has_delay_costs(wait)) return;
        const trace::EventView view(trace, event);
        const Ticks begin = view.wait_start();
        // The regions are in the master's order: the last forked before.
        const auto region = std::upper_bound(teams.regions.begin(), teams.regions.end(), begin,
                                             [](Ticks t, const ParallelRegion& r) { return t < r.fork; });
        if (region == teams.regions.begin() || begin >= std::prev(region)->join) return;
        found.push_back({event, begin, wait.waiting, view.cnode()});
    });
    std::sort(found.begin(), found.end(),
              [](const MasterMpiWait& a, const MasterMpiWait& b) { return a.begin < b.begin; });
    return found;
}

std::vector<std::pair<trace::EventIndex, double>> barrier_costs_of_mpi_waits(
    const trace::LocalTrace& trace, const ThreadTeams& teams, std::span<const MasterMpiWait> mpi_waits) {
    std::vector<double> costs(mpi_waits.size(), 0.0);
    for_each_barrier_share(trace, teams, mpi_waits, [&](const BarrierShare& share) {
        for (const auto& [k, waiting] : share.mpi_waits)
            costs[k] +=
                static_cast<double>(share.wait) * static_cast<double>(waiting) / static_cast<double>(share.total);
    });
    std::vector<std::pair<trace::EventIndex, double>> by_event;
    for (std::size_t k = 0; k < costs.size(); ++k)
        if (costs[k] > 0) by_event.emplace_back(mpi_waits[k].event, costs[k]);
    return by_event;
}

void book_barrier_delay_costs(const trace::LocalTrace& trace, const ThreadTeams& teams,
                              std::span<const BarrierWaitCosts> inherited_costs,
                              std::span<const MasterMpiWait> mpi_waits, std::span<LocalCube* const> cubes) {
    const auto inherited = [&](std::size_t thread, std::size_t region, std::size_t barrier) -> const PatternCosts* {
        for (const BarrierWaitCosts& c : inherited_costs)
            if (c.thread == thread && c.region == region && c.barrier == barrier) return &c.costs;
        return nullptr;
    };
    for_each_barrier_share(trace, teams, mpi_waits, [&](const BarrierShare& share) {
        LocalCube& last = *cubes[share.last];
        const auto total = static_cast<double>(share.total);
        const double scale = trace.seconds(share.wait) / total;
        for (const auto& [cnode, more] : share.excess)
            last.add(Metric::DelayOmpBarrier, cnode, static_cast<double>(more) * scale);
        const PatternCosts* costs = inherited(share.waiter, share.region, share.barrier);
        if (!costs) return;
        for (std::size_t kind = 0; kind < kCostKinds; ++kind) {
            if (!((*costs)[kind] > 0)) continue;
            const double long_scale = ticks_to_seconds(trace, (*costs)[kind]) / total;
            for (const auto& [cnode, more] : share.excess)
                last.add(long_term_metric(kind), cnode, static_cast<double>(more) * long_scale);
        }
    });
}

}  // namespace hindsight::analyses
