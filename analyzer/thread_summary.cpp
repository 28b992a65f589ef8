#include "analyzer/thread_summary.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "analyses/metrics.hpp"
#include "analyzer/report_queries.hpp"
#include "common/time_category.hpp"
#include "common/time_format.hpp"

namespace hindsight::analyzer {
namespace {

constexpr std::size_t kCausesShown = 3;

// A metric's values, or kNone where the report has none.
cube::MetricIndex metric_index(const cube::Report& report, analyses::Metric metric) {
    const auto m = report.find_metric(analyses::info(metric).unique_name);
    return m != cube::kNone && report.has_values(m) ? m : cube::kNone;
}

double value(const cube::Report& report, cube::MetricIndex m, cube::CnodeIndex c, cube::LocationIndex l) {
    return m == cube::kNone ? 0.0 : report.value(m, c, l);
}

// "rank 0, OMP thread 1": where a value lies, as the system tree names it.
std::string location_name(const cube::Report& report, cube::LocationIndex l) {
    const cube::Location& location = report.locations()[l];
    return "rank " + std::to_string(report.location_groups()[location.group].rank) + ", " + location.name;
}

// The master is thread 0 of its rank; the others are its workers.
bool is_worker(const cube::Report& report, cube::LocationIndex l) { return report.locations()[l].rank != 0; }

// A metric summed over call paths and locations (`only_workers`: over the
// worker threads alone).
double total(const cube::Report& report, cube::MetricIndex m, bool only_workers = false) {
    double sum = 0;
    if (m == cube::kNone) return sum;
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c)
        for (cube::LocationIndex l = 0; l < report.locations().size(); ++l)
            if (!only_workers || is_worker(report, l)) sum += report.value(m, c, l);
    return sum;
}

// The call path where `sum` of the metrics is largest over all locations,
// and its value; kNone where all are 0. Call paths `skip` says true of are
// left out.
template <typename Sum, typename Skip>
std::pair<cube::CnodeIndex, double> largest_call_path(const cube::Report& report, Sum sum, Skip skip) {
    std::pair<cube::CnodeIndex, double> top{cube::kNone, 0.0};
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
        if (skip(c)) continue;
        double at = 0;
        for (cube::LocationIndex l = 0; l < report.locations().size(); ++l) at += sum(c, l);
        if (at > top.second) top = {c, at};
    }
    return top;
}
template <typename Sum>
std::pair<cube::CnodeIndex, double> largest_call_path(const cube::Report& report, Sum sum) {
    return largest_call_path(report, sum, [](cube::CnodeIndex) { return false; });
}

// MPI's start and end (MPI_Init_thread, MPI_Finalize): the workers idle
// there while the runtimes start and stop, which no change of the program's
// work would remove.
bool starts_or_ends_mpi(const cube::Report& report, cube::CnodeIndex c) {
    return is_init_or_finalize(report.regions()[report.cnodes()[c].region].name);
}

// Idle worker threads: time a worker spent outside its master's parallel
// regions (booked at the master's call path, so the call path says what
// the master did meanwhile), and inside regions whose team it was not part
// of (limited parallelism, a part of it).
void print_idleness(std::ostream& out, const cube::Report& report, double total_time) {
    const cube::MetricIndex idle = metric_index(report, analyses::Metric::OmpIdleThreads);
    const double idle_total = total(report, idle);
    if (idle_total <= 0) return;
    const double worker_time = total(report, metric_index(report, analyses::Metric::Time), true);
    out << "  Idle worker threads: " << format_seconds(idle_total);
    if (worker_time > 0) out << ", " << format_percent(idle_total / worker_time) << " of the worker threads' time";
    if (total_time > 0) out << " (" << format_percent(idle_total / total_time) << ")";
    // Where the master worked meanwhile, rather than where MPI started or
    // ended, unless that is all there is.
    const auto idle_at = [&](auto c, auto l) { return report.value(idle, c, l); };
    auto [cnode, at] = largest_call_path(report, idle_at, [&](auto c) { return starts_or_ends_mpi(report, c); });
    if (cnode == cube::kNone) std::tie(cnode, at) = largest_call_path(report, idle_at);
    out << "\n    mostly while the master ran " << call_path_name(report, cnode) << " (" << format_seconds(at) << ")";
    // The rank whose workers idled most there.
    std::vector<double> per_rank(report.location_groups().size(), 0.0);
    for (cube::LocationIndex l = 0; l < report.locations().size(); ++l)
        per_rank[report.locations()[l].group] += report.value(idle, cnode, l);
    const auto worst = std::max_element(per_rank.begin(), per_rank.end()) - per_rank.begin();
    out << ", most on rank " << report.location_groups()[worst].rank << " (" << format_seconds(per_rank[worst])
        << ")\n";
    out << "    advice: parallelize the master's work there, or run fewer threads per rank and more ranks\n";
}

// The parallel region a barrier belongs to: its nearest caller that is one
// (Score-P names them "!$omp parallel @file:line"); the barrier's caller
// where none is.
cube::CnodeIndex enclosing_region(const cube::Report& report, cube::CnodeIndex barrier) {
    for (auto c = report.cnodes()[barrier].parent; c != cube::kNone; c = report.cnodes()[c].parent)
        if (report.regions()[report.cnodes()[c].region].name.rfind("!$omp parallel", 0) == 0) return c;
    const auto parent = report.cnodes()[barrier].parent;
    return parent == cube::kNone ? barrier : parent;
}

// Thread imbalance: the waiting in OpenMP barriers (explicit and implicit)
// for the last thread of the team, where it is largest, how late that
// thread came, and what made threads late (the barrier delay costs, on the
// late thread's call paths).
void print_imbalance(std::ostream& out, const cube::Report& report, double total_time) {
    const cube::MetricIndex implicit = metric_index(report, analyses::Metric::OmpIbarrierWait),
                            explicit_ = metric_index(report, analyses::Metric::OmpEbarrierWait);
    const auto wait = [&](cube::CnodeIndex c, cube::LocationIndex l) {
        return value(report, implicit, c, l) + value(report, explicit_, c, l);
    };
    const double waiting = total(report, implicit) + total(report, explicit_);
    if (waiting <= 0) return;
    out << "  Thread imbalance in parallel regions (waiting in OpenMP barriers for the team's last thread): "
        << format_seconds(waiting);
    if (total_time > 0) out << " (" << format_percent(waiting / total_time) << ")";
    const auto [barrier, at] = largest_call_path(report, wait);
    out << "\n    mostly in " << call_path_name(report, enclosing_region(report, barrier)) << " at its "
        << report.regions()[report.cnodes()[barrier].region].name << " (" << format_seconds(at) << ")\n";
    // The thread that waited longest there came first, on average by its
    // wait per visit before the team's last thread.
    cube::LocationIndex first = 0;
    for (cube::LocationIndex l = 0; l < report.locations().size(); ++l)
        if (wait(barrier, l) > wait(barrier, first)) first = l;
    const double visits = value(report, metric_index(report, analyses::Metric::Visits), barrier, first);
    if (visits > 0) {
        out << "    the last thread arrived " << format_seconds(wait(barrier, first) / visits) << " after "
            << location_name(report, first) << " (its wait";
        if (visits > 1) out << " per visit, over " << static_cast<long long>(visits) << " visits";
        out << ")\n";
    }
    // What made threads late: the largest barrier delay costs.
    const cube::MetricIndex delay = metric_index(report, analyses::Metric::DelayOmpBarrier);
    if (delay == cube::kNone) return;
    struct Cause {
        cube::CnodeIndex cnode;
        cube::LocationIndex location;
        double value;
    };
    std::vector<Cause> causes;
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c)
        for (cube::LocationIndex l = 0; l < report.locations().size(); ++l)
            if (const double v = report.value(delay, c, l); v > 0) causes.push_back({c, l, v});
    if (causes.empty()) return;
    std::stable_sort(causes.begin(), causes.end(), [](const Cause& a, const Cause& b) { return a.value > b.value; });
    if (causes.size() > kCausesShown) causes.resize(kCausesShown);
    out << "    caused mostly by (delay costs over the run):\n";
    for (const Cause& cause : causes)
        out << "      " << call_path_name(report, cause.cnode) << " on " << location_name(report, cause.location)
            << ": " << format_seconds(cause.value) << '\n';
    out << "    advice: balance the work among the threads of the region (e.g. schedule(dynamic) for uneven "
           "iterations)\n";
}

}  // namespace

bool has_threads(const cube::Report& report) {
    std::vector<int> threads(report.location_groups().size(), 0);
    for (const cube::Location& location : report.locations())
        if (++threads[location.group] > 1) return true;
    return false;
}

void print_thread_summary(std::ostream& out, const cube::Report& report, double total_time) {
    if (!has_threads(report)) return;
    out << "OpenMP threads:\n";
    std::ostringstream lines;
    print_idleness(lines, report, total_time);
    print_imbalance(lines, report, total_time);
    out << (lines.str().empty() ? "  none\n" : lines.str());
}

}  // namespace hindsight::analyzer
