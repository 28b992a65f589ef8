#include "analyses/openmp/openmp_wait_states.hpp"

#include <algorithm>

#include "analyses/metric_claims.hpp"

namespace hindsight::analyses {
namespace {

void book_barrier_waits(const trace::LocalTrace& trace, const ParallelRegion& region,
                        std::span<LocalCube* const> cubes) {
    for (std::size_t b = 0; b < region.threads.front().barriers.size(); ++b) {
        const Ticks last = last_arrival(region, b);
        for (std::size_t t = 0; t < region.threads.size(); ++t) {
            if (!region.threads[t].present) continue;
            const BarrierVisit& visit = region.threads[t].barriers[b];
            const Ticks wait = visit.waiting_until(last);
            if (wait <= 0) continue;
            claim_time(*cubes[t], trace,
                       visit.kind == BarrierKind::Explicit ? Metric::OmpEbarrierWait : Metric::OmpIbarrierWait,
                       visit.cnode, wait);
        }
    }
}

void book_management(const trace::LocalTrace& trace, const ParallelRegion& region, std::span<LocalCube* const> cubes) {
    for (std::size_t t = 0; t < region.threads.size(); ++t) {
        const ThreadPart& part = region.threads[t];
        if (!part.present) continue;
        if (part.enter > region.fork) claim_time(*cubes[t], trace, Metric::OmpFork, part.region, part.enter - region.fork);
        if (region.join > part.leave)
            claim_time(*cubes[t], trace, Metric::OmpManagement, part.region, region.join - part.leave);
    }
}

void book_lock_contention(const trace::LocalTrace& trace, const ThreadTeams& teams, std::span<LocalCube* const> cubes) {
    const auto release_of = [&](std::uint32_t lock, std::uint32_t order) -> const ThreadTeams::Release* {
        const auto it = std::lower_bound(teams.releases.begin(), teams.releases.end(), std::pair(lock, order),
                                         [](const ThreadTeams::Release& r, std::pair<std::uint32_t, std::uint32_t> k) {
                                             return r.lock != k.first ? r.lock < k.first : r.order < k.second;
                                         });
        return it != teams.releases.end() && it->lock == lock && it->order == order ? &*it : nullptr;
    };
    for (std::size_t t = 0; t < teams.acquisitions.size(); ++t)
        for (const LockAcquisition& a : teams.acquisitions[t]) {
            // The first acquisition of a lock (and one of order 0, which
            // says nothing of the order) never waits.
            if (a.order <= 1) continue;
            const ThreadTeams::Release* previous = release_of(a.lock, a.order - 1);
            if (!previous || previous->time <= a.region_enter) continue;
            claim_time(*cubes[t], trace,
                       is_critical_lock_region(trace.region_of(a.cnode)) ? Metric::OmpLockContentionCritical
                                                                         : Metric::OmpLockContentionApi,
                       a.cnode, previous->time - a.region_enter);
        }
}

}  // namespace

bool is_critical_lock_region(const Region& region) {
    if (region.role == RegionRole::Critical || region.role == RegionRole::CriticalSblock) return true;
    return region.name.starts_with("!$omp critical");
}

void book_openmp_wait_states(const trace::LocalTrace& trace, const ThreadTeams& teams,
                             std::span<LocalCube* const> cubes) {
    for (const ParallelRegion& region : teams.regions) {
        book_management(trace, region, cubes);
        if (barriers_pair_up(region)) book_barrier_waits(trace, region, cubes);
    }
    book_lock_contention(trace, teams, cubes);
}

}  // namespace hindsight::analyses
