#include "analyses/openmp/thread_idleness.hpp"

#include "analyses/thread_teams.hpp"
#include "analyses/patterns.hpp"

namespace hindsight::analyses {
namespace {

// The metrics of MPI waiting: each pattern's wait metric and the metrics
// below it (Late Sender's wrong-order parts), since the cube holds own shares.
std::vector<Metric> mpi_wait_metrics() {
    std::vector<bool> waiting(kMetricCount, false);
    for (const PatternInfo& pattern : kWaitPatterns)
        if (pattern.wait) waiting[static_cast<std::size_t>(*pattern.wait)] = true;
    std::vector<Metric> found;
    for (const MetricInfo& m : metric_table()) {
        // Parents come first in the table, so a parent's mark is final.
        if (m.parent && waiting[static_cast<std::size_t>(*m.parent)]) waiting[static_cast<std::size_t>(m.metric)] = true;
        if (waiting[static_cast<std::size_t>(m.metric)]) found.push_back(m.metric);
    }
    return found;
}

// Inclusive ticks by call path from exclusive ones (children follow their
// parents in a call tree).
std::vector<Ticks> inclusive(const CallTree& tree, const std::vector<Ticks>& exclusive) {
    std::vector<Ticks> sum(exclusive);
    for (std::size_t c = tree.size(); c-- > 0;)
        if (const CallPathId parent = tree.node(static_cast<CallPathId>(c)).parent; parent != kNoCallPath)
            sum[parent] += sum[c];
    return sum;
}

}  // namespace

std::vector<bool> parallel_call_paths(const trace::LocalTrace& trace) {
    std::vector<bool> in(trace.call_tree.size(), false);
    for (CallPathId c = 0; c < in.size(); ++c) {
        const Region& region = trace.region_of(c);
        const CallPathId parent = trace.call_tree.node(c).parent;
        in[c] = region.role == RegionRole::Parallel || is_parallel_construct(region.name) ||
                (parent != kNoCallPath && in[parent]);
    }
    return in;
}

void book_thread_idleness(const trace::LocalTrace& trace, std::span<const std::vector<Ticks>* const> exclusive,
                          std::span<LocalCube* const> cubes) {
    const std::size_t threads = cubes.size();
    if (threads < 2) return;
    const std::vector<bool> in_parallel = parallel_call_paths(trace);
    const std::vector<Ticks>& master = *exclusive[0];
    const std::vector<Metric> waits = mpi_wait_metrics();
    for (CallPathId c = 0; c < in_parallel.size(); ++c) {
        if (in_parallel[c] || master[c] == 0) continue;
        const double serial = trace.seconds(master[c]);
        for (std::size_t t = 1; t < threads; ++t) cubes[t]->add(Metric::OmpIdleThreads, c, serial);
        double waited = 0;
        for (const Metric m : waits) waited += cubes[0]->get(m, c);
        cubes[0]->add(Metric::DelayOmpIdle, c, static_cast<double>(threads - 1) * (serial - waited));
    }
    // Limited parallelism at the outermost parallel regions.
    const std::vector<Ticks> master_inclusive = inclusive(trace.call_tree, master);
    for (std::size_t t = 1; t < threads; ++t) {
        const std::vector<Ticks> worker_inclusive = inclusive(trace.call_tree, *exclusive[t]);
        for (CallPathId c = 0; c < in_parallel.size(); ++c) {
            const CallPathId parent = trace.call_tree.node(c).parent;
            const bool outermost = in_parallel[c] && (parent == kNoCallPath || !in_parallel[parent]);
            if (outermost && master_inclusive[c] > worker_inclusive[c])
                cubes[t]->add(Metric::OmpLimitedParallelism, c,
                              trace.seconds(master_inclusive[c] - worker_inclusive[c]));
        }
    }
}

}  // namespace hindsight::analyses
