#include "tests/reference/invariants.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/report_cells.hpp"

namespace reference {

namespace {

using namespace hindsight::cube;

// Two sums of the same seconds, taken in different orders and over different
// metrics, differ by rounding only; the bounds leave room for the rounding of
// many small values in long runs, yet catch any lost or doubled wait state.
bool close(double a, double b) { return std::fabs(a - b) <= 1e-6 + 1e-6 * std::fmax(std::fabs(a), std::fabs(b)); }
bool at_most(double a, double b) { return a <= b + 1e-6 + 1e-6 * std::fabs(b); }
// A metric's own share is a difference of stored sums: exact but for rounding.
constexpr double kNegativeTolerance = 1e-9;

// Waiting and its delay costs, which add up to it: the waiting summed over
// the metrics of one wait in different calls (a Late Post in a
// synchronization call or in a transfer). MPI's waiting counts with its
// sub-metrics (Early Fence is a part of Wait at Fence, and its costs are
// the fence's); OpenMP's without: the idle threads less their sub-metric,
// limited parallelism, which no delay explains. Metric names shared with
// Scalasca first, then Hindsight's own; a report without a pattern's
// metrics skips it.
enum class Waiting { WithSubMetrics, OwnShare };
struct DelayPattern {
    std::vector<const char*> waiting;
    const char* short_term;
    const char* long_term;
    Waiting counted = Waiting::WithSubMetrics;
};
const DelayPattern kDelayPatterns[] = {
    {{"mpi_latesender"}, "delay_latesender", "delay_latesender_longterm"},
    {{"mpi_latereceiver"}, "delay_latereceiver", "delay_latereceiver_longterm"},
    {{"mpi_barrier_wait"}, "delay_barrier", "delay_barrier_longterm"},
    {{"mpi_wait_nxn"}, "delay_n2n", "delay_n2n_longterm"},
    {{"mpi_latebroadcast"}, "delay_12n", "delay_12n_longterm"},
    {{"mpi_earlyreduce"}, "delay_n21", "delay_n21_longterm"},
    {{"mpi_io_wait_nxn"}, "delay_io_n2n", "delay_io_n2n_longterm"},
    {{"mpi_rma_wait_at_create"}, "delay_rma_create", "delay_rma_create_longterm"},
    {{"mpi_rma_wait_at_free"}, "delay_rma_free", "delay_rma_free_longterm"},
    {{"mpi_rma_wait_at_fence"}, "delay_rma_fence", "delay_rma_fence_longterm"},
    {{"mpi_rma_sync_late_post", "mpi_rma_comm_late_post"}, "delay_rma_latepost", "delay_rma_latepost_longterm"},
    {{"mpi_rma_early_wait"}, "delay_rma_earlywait", "delay_rma_earlywait_longterm"},
    {{"mpi_rma_sync_lock_competition", "mpi_rma_comm_lock_competition"}, "delay_rma_lockcontention",
     "delay_rma_lockcontention_longterm"},
    {{"mpi_rma_sync_wait_for_progress", "mpi_rma_comm_wait_for_progress"}, "delay_rma_waitforprogress",
     "delay_rma_waitforprogress_longterm"},
    {{"omp_ibarrier_wait", "omp_ebarrier_wait"}, "delay_ompbarrier", "delay_ompbarrier_longterm", Waiting::OwnShare},
    {{"omp_idle_threads"}, "delay_ompidle", "delay_ompidle_longterm", Waiting::OwnShare},
};

// The two ways point-to-point waiting is split.
struct WaitSplit {
    const char* whole;
    const char* direct;
    const char* indirect;
    const char* propagating;
};
constexpr WaitSplit kWaitSplits[] = {
    {"mpi_latesender", "mpi_wait_direct_latesender", "mpi_wait_indirect_latesender", "mpi_wait_propagating_ls"},
    {"mpi_latereceiver", "mpi_wait_direct_latereceiver", "mpi_wait_indirect_latereceiver", "mpi_wait_propagating_lr"},
};

__attribute__((format(printf, 1, 2))) std::string format(const char* pattern, ...) {
    char text[1024];
    va_list args;
    va_start(args, pattern);
    std::vsnprintf(text, sizeof text, pattern, args);
    va_end(args);
    return text;
}

// One metric's stored values: [call path][rank].
using Cells = std::vector<std::map<std::int64_t, double>>;

Cells cells_of(const Report& report, MetricIndex metric) {
    Cells cells(report.cnodes().size());
    for (CnodeIndex c = 0; c < cells.size(); ++c) cells[c] = report_cells::values_by_rank(report, metric, c);
    return cells;
}

double total(const Cells& cells) {
    double sum = 0.0;
    for (const auto& by_rank : cells)
        for (const auto& [rank, v] : by_rank) sum += v;
    return sum;
}

// The metric's own share: its stored values less its sub-metrics'.
Cells own_share(const Report& report, MetricIndex metric) {
    Cells own = cells_of(report, metric);
    for (const MetricIndex child : report.metric_children(metric)) {
        const Cells sub = cells_of(report, child);
        for (CnodeIndex c = 0; c < own.size(); ++c)
            for (const auto& [rank, v] : sub[c]) own[c][rank] -= v;
    }
    return own;
}

std::string where(const Report& report, CnodeIndex cnode, std::int64_t rank) {
    return report_cells::call_path(report, cnode) + " rank " + std::to_string(rank);
}

class Checker {
public:
    explicit Checker(const Report& report) : report_(report) {}

    void delay_costs() {
        for (const DelayPattern& p : kDelayPatterns) {
            const MetricIndex short_term = report_.find_metric(p.short_term), long_term = report_.find_metric(p.long_term);
            if (short_term == kNone || long_term == kNone) continue;
            double w = 0.0;
            bool defined = true;
            for (const char* name : p.waiting) {
                const MetricIndex m = report_.find_metric(name);
                if (m == kNone) defined = false;
                else w += total(p.counted == Waiting::OwnShare ? own_share(report_, m) : cells_of(report_, m));
            }
            if (!defined) continue;
            // If long-term costs are a sub-metric of short-term ones (as in
            // some trees), the own share keeps them from counting twice.
            const double s = total(own_share(report_, short_term)), l = total(cells_of(report_, long_term));
            if (!close(s + l, w))
                fail("delay costs", format("%s: %s %.9g s + %s %.9g s = %.9g s, but the waiting is %.9g s",
                                           p.waiting.front(), p.short_term, s, p.long_term, l, s + l, w));
        }
    }

    void wait_splits() {
        for (const WaitSplit& split : kWaitSplits) {
            const MetricIndex whole = report_.find_metric(split.whole);
            if (whole == kNone) continue;
            const Cells w = cells_of(report_, whole);
            const MetricIndex direct = report_.find_metric(split.direct), indirect = report_.find_metric(split.indirect);
            if (direct != kNone && indirect != kNone) direct_plus_indirect(split, w, direct, indirect);
            const MetricIndex propagating = report_.find_metric(split.propagating);
            if (propagating != kNone) propagating_within(split, w, cells_of(report_, propagating));
        }
    }

    void sub_metrics() {
        for (MetricIndex m = 0; m < report_.metrics().size(); ++m) {
            const Cells stored = cells_of(report_, m), own = own_share(report_, m);
            for (CnodeIndex c = 0; c < own.size(); ++c)
                for (const auto& [rank, v] : own[c])
                    if (v < -kNegativeTolerance)
                        fail("sub-metrics", format("%s: %s's own share is %.9g (value %.9g, sub-metrics %.9g)",
                                                   where(report_, c, rank).c_str(),
                                                   report_.metrics()[m].unique_name.c_str(), v,
                                                   stored[c].at(rank), stored[c].at(rank) - v));
        }
    }

    void critical_path(double length) {
        const MetricIndex path = report_.find_metric("critical_path");
        if (path == kNone) return;
        const double sum = total(cells_of(report_, path));
        if (!close(sum, length))
            fail("critical path", format("critical_path sums to %.9g s, but the length is %.9g s", sum, length));
    }

    std::vector<Violation> violations;

private:
    void fail(const char* invariant, std::string detail) { violations.push_back({invariant, std::move(detail)}); }

    void direct_plus_indirect(const WaitSplit& split, const Cells& w, MetricIndex direct, MetricIndex indirect) {
        const Cells d = cells_of(report_, direct), i = cells_of(report_, indirect);
        const auto check = [&](const std::string& at, double dv, double iv, double wv) {
            if (!close(dv + iv, wv))
                fail("direct+indirect", format("%s: %s %.9g s + %s %.9g s = %.9g s, but %s is %.9g s", at.c_str(),
                                               split.direct, dv, split.indirect, iv, dv + iv, split.whole, wv));
        };
        for (CnodeIndex c = 0; c < w.size(); ++c)
            for (const auto& [rank, wv] : w[c]) check(where(report_, c, rank), d[c].at(rank), i[c].at(rank), wv);
        check("in total", total(d), total(i), total(w));
    }

    void propagating_within(const WaitSplit& split, const Cells& w, const Cells& p) {
        const auto check = [&](const std::string& at, double pv, double wv) {
            if (!at_most(pv, wv))
                fail("propagating", format("%s: %s %.9g s exceeds %s %.9g s", at.c_str(), split.propagating, pv,
                                           split.whole, wv));
        };
        for (CnodeIndex c = 0; c < w.size(); ++c)
            for (const auto& [rank, wv] : w[c]) check(where(report_, c, rank), p[c].at(rank), wv);
        check("in total", total(p), total(w));
    }

    const Report& report_;
};

}  // namespace

std::vector<Violation> check_invariants(const Report& report, const InvariantOptions& options) {
    if (report.value_kind() != ValueKind::MetricInclusive) {
        Report stored = report;
        stored.to_metric_inclusive();
        return check_invariants(stored, options);
    }
    Checker checker(report);
    checker.delay_costs();
    checker.wait_splits();
    checker.sub_metrics();
    if (options.critical_path_length) checker.critical_path(*options.critical_path_length);
    return std::move(checker.violations);
}

}  // namespace reference
