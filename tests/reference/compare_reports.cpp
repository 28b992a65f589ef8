// Compares two CUBE reports cell by cell: Hindsight's and Scalasca's for the
// same trace (tests/data/scalasca). Compared are the metrics whose unique
// name both reports define, at every call path both have, on every rank;
// values as the files store them (each metric including its sub-metrics,
// call paths exclusive), which is what both tools write. Call paths are
// matched by their region names from the root, since the two tools number
// call paths differently; locations by MPI rank and thread number (a
// trace without threads has thread 0 only).
//
// usage: compare_reports OURS.cubex SCALASCA.cubex [--allow METRIC:CALLPATH_SUFFIX ...]
//
// Prints one line per differing cell
//     differ|allowed  METRIC  CALL/PATH  RANK[.THREAD]  OURS  THEIRS
// ("allowed": a difference an --allow entry covers, i.e. one we keep on
// purpose; an empty suffix covers every call path), one line per call path
// that has non-zero values of a compared metric in one report only
//     only in our|Scalasca's report  CALL/PATH  non-zero: METRIC, ...
// then
//     [not compared, with values in Scalasca's report: METRIC, ...]
//     [not compared, zero in Scalasca's report: METRIC, ...]
//     compared N cells, M differ (K allowed)
//     [P call paths with values in one report only]
// Exit status 1 if a difference or a one-sided call path is not allowed, 2
// on bad usage or an unreadable report.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/cube/reader.hpp"
#include "tests/support/report_cells.hpp"

namespace {

using namespace hindsight::cube;

// The same quantity, summed in another order and converted from ticks
// otherwise, agrees to rounding: a microsecond, or relatively for large
// times, counts and bytes. Any real difference is far larger.
constexpr double kAbsoluteTolerance = 1e-6;
constexpr double kRelativeTolerance = 1e-4;

bool equal(double a, double b) {
    const double d = std::fabs(a - b);
    return d <= kAbsoluteTolerance || d <= kRelativeTolerance * std::fmax(std::fabs(a), std::fabs(b));
}

struct Allowance {
    std::string metric;
    std::string suffix;  // of the call path, whole region names; empty: any
};

bool allowed(const std::vector<Allowance>& allowances, const std::string& metric, const std::string& path) {
    for (const Allowance& a : allowances) {
        if (a.metric != metric) continue;
        if (a.suffix.empty() || path == a.suffix) return true;
        if (path.size() > a.suffix.size() && path.ends_with(a.suffix) &&
            path[path.size() - a.suffix.size() - 1] == '/')
            return true;
    }
    return false;
}

// A report's call paths by name. Two call paths may have the same name (for
// example the same function called from two lines); their values add up.
using PathIndex = std::map<std::string, std::vector<CnodeIndex>>;

PathIndex index_paths(const Report& report) {
    PathIndex paths;
    for (CnodeIndex c = 0; c < report.cnodes().size(); ++c) paths[report_cells::call_path(report, c)].push_back(c);
    return paths;
}

// A location: its MPI rank and its thread number.
using Location = std::pair<std::int64_t, std::int64_t>;

// One metric at one named call path, per location; empty if the report lacks the path.
std::map<Location, double> values(const Report& report, const PathIndex& paths, MetricIndex metric,
                                  const std::string& path) {
    std::map<Location, double> sum;
    const auto it = paths.find(path);
    if (it == paths.end()) return sum;
    for (const CnodeIndex c : it->second)
        for (LocationIndex l = 0; l < report.locations().size(); ++l)
            sum[{report.location_groups()[report.locations()[l].group].rank, report.locations()[l].rank}] +=
                report.value(metric, c, l);
    return sum;
}

std::string location_text(const Location& l) {
    return std::to_string(l.first) + (l.second == 0 ? "" : "." + std::to_string(l.second));
}

struct Tally {
    long compared = 0, differ = 0, allowed = 0, one_sided = 0;
    bool failed = false;
};

// Every call path in our report's order (depth first), then those only Scalasca has.
std::vector<std::string> all_paths(const Report& ours, const Report& theirs) {
    std::vector<std::string> order;
    std::set<std::string> seen;
    for (const Report* r : {&ours, &theirs})
        for (CnodeIndex c = 0; c < r->cnodes().size(); ++c) {
            std::string path = report_cells::call_path(*r, c);
            if (seen.insert(path).second) order.push_back(std::move(path));
        }
    return order;
}

// Scalasca's analyzer stores `time` before its remapper adds the idle
// threads below it; ours holds them. Compared is our time less them.
std::map<Location, double> as_scalasca_stores(const Report& ours, const Report& theirs, const PathIndex& paths,
                                              MetricIndex metric, const std::string& path,
                                              std::map<Location, double> values) {
    const MetricIndex idle = ours.find_metric("omp_idle_threads");
    if (ours.metrics()[metric].unique_name != "time" || idle == kNone || theirs.find_metric("omp_idle_threads") != kNone)
        return values;
    for (const auto& [location, v] : ::values(ours, paths, idle, path)) values[location] -= v;
    return values;
}

// Scalasca's metrics that our report lacks, not compared: those with
// values in Scalasca's report, then those it holds as zeros only.
void list_not_compared(const Report& ours, const Report& theirs) {
    std::string with_values, zeros;
    for (MetricIndex m = 0; m < theirs.metrics().size(); ++m) {
        const std::string& name = theirs.metrics()[m].unique_name;
        if (ours.find_metric(name) != kNone) continue;
        bool any = false;
        for (CnodeIndex c = 0; c < theirs.cnodes().size() && !any; ++c)
            for (LocationIndex l = 0; l < theirs.locations().size() && !any; ++l) any = theirs.value(m, c, l) != 0.0;
        std::string& list = any ? with_values : zeros;
        list += (list.empty() ? "" : ", ") + name;
    }
    if (!with_values.empty()) std::printf("not compared, with values in Scalasca's report: %s\n", with_values.c_str());
    if (!zeros.empty()) std::printf("not compared, zero in Scalasca's report: %s\n", zeros.c_str());
}

void compare(const Report& ours, const Report& theirs, const std::vector<Allowance>& allowances, Tally& tally) {
    const PathIndex our_paths = index_paths(ours), their_paths = index_paths(theirs);
    list_not_compared(ours, theirs);
    // Per one-sided call path, the metrics with non-zero values there.
    std::map<std::string, std::string> one_sided;
    for (const std::string& path : all_paths(ours, theirs)) {
        const bool in_ours = our_paths.contains(path), in_theirs = their_paths.contains(path);
        for (MetricIndex m = 0; m < ours.metrics().size(); ++m) {
            const std::string& name = ours.metrics()[m].unique_name;
            const MetricIndex their_m = theirs.find_metric(name);
            if (their_m == kNone) continue;
            const auto a = as_scalasca_stores(ours, theirs, our_paths, m, path, values(ours, our_paths, m, path));
            const auto b = values(theirs, their_paths, their_m, path);
            if (!in_ours || !in_theirs) {
                for (const auto& [rank, v] : in_ours ? a : b) {
                    if (v == 0.0) continue;
                    const bool ok = allowed(allowances, name, path);
                    tally.failed |= !ok;
                    one_sided[path] += (one_sided[path].empty() ? "" : ", ") + name + (ok ? " (allowed)" : "");
                    break;
                }
                continue;
            }
            std::set<Location> ranks;
            for (const auto* side : {&a, &b})
                for (const auto& [rank, v] : *side) ranks.insert(rank);
            for (const Location& rank : ranks) {
                const double x = a.contains(rank) ? a.at(rank) : 0.0, y = b.contains(rank) ? b.at(rank) : 0.0;
                ++tally.compared;
                if (equal(x, y)) continue;
                ++tally.differ;
                const bool ok = allowed(allowances, name, path);
                if (ok) ++tally.allowed;
                tally.failed |= !ok;
                std::printf("%s\t%s\t%s\t%s\t%.9g\t%.9g\n", ok ? "allowed" : "differ", name.c_str(), path.c_str(),
                            location_text(rank).c_str(), x, y);
            }
        }
    }
    for (const auto& [path, metrics] : one_sided) {
        ++tally.one_sided;
        std::printf("only in %s report\t%s\tnon-zero: %s\n", our_paths.contains(path) ? "our" : "Scalasca's",
                    path.c_str(), metrics.c_str());
    }
}

int usage() {
    std::fprintf(stderr, "usage: compare_reports OURS.cubex SCALASCA.cubex [--allow METRIC:CALLPATH_SUFFIX ...]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    std::vector<Allowance> allowances;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg != "--allow" || i + 1 == argc) return usage();
        const std::string entry = argv[++i];
        const auto colon = entry.find(':');
        if (colon == std::string::npos || colon == 0) return usage();
        allowances.push_back({entry.substr(0, colon), entry.substr(colon + 1)});
    }
    Tally tally;
    try {
        const Report ours = read_cubex(argv[1]);
        const Report theirs = read_cubex(argv[2]);
        compare(ours, theirs, allowances, tally);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "compare_reports: %s\n", e.what());
        return 2;
    }
    std::printf("compared %ld cells, %ld differ (%ld allowed)\n", tally.compared, tally.differ, tally.allowed);
    if (tally.one_sided > 0)
        std::printf("%ld call paths with values in one report only\n", tally.one_sided);
    return tally.failed ? 1 : 0;
}
