// The synthetic load-imbalance benchmark of Böhme et al. (IPDPS 2012,
// Section IV-A), imbalance_benchmark.hpp, and what the critical-path
// indicators make of its scenarios.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "tests/analyses/backward/backward_helpers.hpp"
#include "tests/analyses/backward/imbalance_benchmark.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

struct Indicators {
    double path_length = 0;
    double path_work = 0;           // work() on the critical path
    double path_imbalance = 0;      // critical-path imbalance of work()
    double other_imbalance = 0;     // of every other call path
    double profile_imbalance = 0;   // max - avg over ranks of work() without waits
    double barrier_wait = 0;
    double barrier_delay = 0;       // short + long term
    double impact_total = 0;        // all performance-impact metrics, all ranks
};

Indicators measure(const TraceBuilder& t) {
    const AnalysisResults r(t, kAllAnalyses);
    Indicators m;
    double max_work = 0;
    double sum_work = 0;
    for (int rank = 0; rank < kRanks; ++rank) {
        m.path_length += subtree_total(r, Metric::CriticalPath, rank);
        m.path_work += r.with_children(Metric::CriticalPath, rank, "main/work");
        const double imbalance = r.with_children(Metric::CriticalPathImbalance, rank, "main/work");
        m.path_imbalance += imbalance;
        m.other_imbalance += subtree_total(r, Metric::CriticalPathImbalance, rank) - imbalance;
        const double work = r.with_children(Metric::CriticalPathActivities, rank, "main/work");
        max_work = std::max(max_work, work);
        sum_work += work;
        m.impact_total += subtree_total(r, Metric::CriticalPathActivities, rank) +
                          subtree_total(r, Metric::CriticalImbalanceImpact, rank) +
                          subtree_total(r, Metric::NonCriticalPathActivities, rank);
    }
    m.profile_imbalance = max_work - sum_work / kRanks;
    m.barrier_wait = all_ranks(r, Metric::MpiBarrierWait, kRanks);
    m.barrier_delay = all_ranks(r, Metric::DelayBarrierAggregate, kRanks);
    return m;
}

constexpr double N = kIterations;
const double w = ns(kWork);
const double x = ns(kExtra);

}  // namespace

TEST_CASE("imbalance scenarios: balanced", "[critical-path][imbalance]") {
    const Indicators m = measure(imbalance_benchmark([](int) { return -1; }));
    CHECK(m.path_length == Approx(ns(kInit) + N * w));
    CHECK(m.path_imbalance == Approx(0.0).margin(1e-15));
    CHECK(m.profile_imbalance == Approx(0.0).margin(1e-15));
    CHECK(m.barrier_wait == 0.0);
}

TEST_CASE("imbalance scenarios: static", "[critical-path][imbalance]") {
    const Indicators m = measure(imbalance_benchmark([](int) { return 0; }));
    CHECK(m.path_length == Approx(ns(kInit) + N * (w + x)));
    CHECK(m.path_work == Approx(N * (w + x)));
    CHECK(m.path_imbalance == Approx(N * x));
    CHECK(m.other_imbalance == Approx(0.0).margin(1e-15));
    CHECK(m.profile_imbalance == Approx(N * x));
    // Rank 0 holds the whole path: it lacks time in no critical call path,
    // so no headroom of its own is spread, and its MPI_Finalize, after the
    // path's end, adds to the allocation's ranks x length.
    CHECK(m.impact_total == Approx(kRanks * m.path_length + ns(kInit)));
    // Each iteration 3 ranks wait 4x/3: all of it is rank 0's excess work.
    CHECK(m.barrier_wait == Approx(N * 4 * x));
    CHECK(m.barrier_delay == Approx(m.barrier_wait));
}

TEST_CASE("imbalance scenarios: dynamic", "[critical-path][imbalance]") {
    const Indicators m = measure(imbalance_benchmark([](int i) { return i % kRanks; }));
    CHECK(m.path_length == Approx(ns(kInit) + N * (w + x)));
    // The configured imbalance, which the per-process profile cannot see.
    CHECK(m.path_imbalance == Approx(N * x));
    CHECK(m.profile_imbalance == Approx(0.0).margin(1e-15));
    CHECK(m.impact_total == Approx(kRanks * m.path_length));
    CHECK(m.barrier_delay == Approx(m.barrier_wait));
}

TEST_CASE("imbalance scenarios: mixed", "[critical-path][imbalance]") {
    const Indicators m = measure(imbalance_benchmark([](int i) { return i < kIterations / 2 ? 0 : 1; }));
    CHECK(m.path_imbalance == Approx(N * x));
    CHECK(m.profile_imbalance == Approx(N * x / 3));
    CHECK(m.impact_total == Approx(kRanks * m.path_length));
    CHECK(m.barrier_delay == Approx(m.barrier_wait));
}
