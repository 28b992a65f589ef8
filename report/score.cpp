#include "report/score.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>

#include "common/error.hpp"
#include "common/side_files.hpp"
#include "common/trace_size.hpp"

namespace hindsight::report {
namespace {

std::string kind_of(const cube::Region& region) {
    if (region.paradigm == Paradigm::Mpi) return "MPI";
    if (region.paradigm == Paradigm::User || region.paradigm == Paradigm::Compiler) return "USR";
    return "OTHER";
}

// `name` as a pattern of a filter file that matches it alone: glob
// characters escaped, and blanks (which separate patterns) matched by '?'.
std::string literal_pattern(const std::string& name) {
    std::string pattern;
    for (const char c : name) {
        if (c == '*' || c == '?' || c == '[' || c == '\\') pattern += '\\';
        pattern += (c == ' ' || c == '\t') ? '?' : c;
    }
    return pattern;
}

std::string bytes_text(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    std::size_t unit = 0;
    while (bytes >= 1024 && unit + 1 < std::size(units)) {
        bytes /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    return text;
}

}  // namespace

Score score(const cube::Report& profile, const std::string& path) {
    const cube::MetricIndex visits = profile.find_metric("visits");
    const cube::MetricIndex events = profile.find_metric(trace_size::kTraceEventsMetric);
    const cube::MetricIndex time = profile.find_metric("time");
    if (visits == cube::kNone || events == cube::kNone || time == cube::kNone)
        throw Error(path, "not a profile of hindsight-collect --profile (it has no visits, time or " +
                              std::string(trace_size::kTraceEventsMetric) + " metric)");
    const auto& cnodes = profile.cnodes();
    const auto& locations = profile.locations();
    // The time of each call path with its callees, on all ranks: callees
    // come after their callers, so a backward sweep adds them up.
    std::vector<double> inclusive(cnodes.size(), 0);
    for (cube::CnodeIndex c = 0; c < cnodes.size(); ++c)
        for (cube::LocationIndex l = 0; l < locations.size(); ++l) inclusive[c] += profile.value(time, c, l);
    for (std::size_t c = cnodes.size(); c-- > 0;)
        if (cnodes[c].parent != cube::kNone) inclusive[cnodes[c].parent] += inclusive[c];

    Score s;
    std::int64_t ranks = 0;
    for (const cube::LocationGroup& g : profile.location_groups()) ranks = std::max(ranks, g.rank + 1);
    s.bytes_of_rank.assign(static_cast<std::size_t>(ranks), 0);
    std::vector<ScoreRegion> regions(profile.regions().size());
    std::vector<double> most_visits_on_a_rank(regions.size(), 0), seconds(regions.size(), 0);
    for (cube::CnodeIndex c = 0; c < cnodes.size(); ++c) {
        const cube::RegionIndex r = cnodes[c].region;
        double path_visits = 0;
        for (cube::LocationIndex l = 0; l < locations.size(); ++l) {
            const double v = profile.value(visits, c, l);
            const double bytes = 2 * v * trace_size::kBytesPerRegionEvent +
                                 profile.value(events, c, l) * trace_size::kBytesPerOtherEvent;
            const auto rank = static_cast<std::size_t>(profile.location_groups()[locations[l].group].rank);
            if (rank < s.bytes_of_rank.size()) s.bytes_of_rank[rank] += bytes;
            regions[r].bytes += bytes;
            regions[r].visits += v;
            path_visits += v;
            most_visits_on_a_rank[r] = std::max(most_visits_on_a_rank[r], v);
        }
        if (path_visits > 0) seconds[r] += inclusive[c];
    }
    for (std::size_t r = 0; r < regions.size(); ++r) {
        ScoreRegion& region = regions[r];
        region.name = profile.regions()[r].name;
        region.mangled = profile.regions()[r].mangled_name.empty() ? region.name : profile.regions()[r].mangled_name;
        region.kind = kind_of(profile.regions()[r]);
        region.seconds_per_visit = region.visits > 0 ? seconds[r] / region.visits : 0;
        region.filtered = region.kind == "USR" && most_visits_on_a_rank[r] >= kFilterVisits &&
                          region.seconds_per_visit < kFilterSecondsPerVisit;
    }
    const double events_bytes = std::accumulate(s.bytes_of_rank.begin(), s.bytes_of_rank.end(), 0.0);
    s.total_bytes = events_bytes + trace_size::kFixedBytes;
    s.filtered_bytes = s.total_bytes;
    for (const ScoreRegion& region : regions)
        if (region.filtered) s.filtered_bytes -= region.bytes;
    for (ScoreRegion& region : regions)
        if (region.visits > 0) s.regions.push_back(std::move(region));
    std::stable_sort(s.regions.begin(), s.regions.end(),
                     [](const ScoreRegion& a, const ScoreRegion& b) { return a.bytes > b.bytes; });
    return s;
}

void print_score(std::ostream& out, const Score& s) {
    const double largest = s.bytes_of_rank.empty() ? 0 : *std::max_element(s.bytes_of_rank.begin(), s.bytes_of_rank.end());
    out << "Estimated trace: " << bytes_text(s.total_bytes) << " in all (" << std::llround(s.total_bytes)
        << " bytes), " << bytes_text(largest) << " on the largest of " << s.bytes_of_rank.size() << " ranks\n";
    // The buffer holds a rank's events until the end; a smaller one flushes to disk during the run.
    const double buffer = std::max(1.0, std::ceil(largest * 1.1 / (1 << 20)));
    out << "Buffer for no flush: --buffer " << static_cast<long long>(buffer) << "M\n";
    if (s.filtered_bytes < s.total_bytes)
        out << "With the filter: " << bytes_text(s.filtered_bytes) << " in all\n";
    out << "\nbytes\tshare\tvisits\ttime/visit\tkind\tfilter\tregion\n";
    for (const ScoreRegion& r : s.regions) {
        char share[16], per_visit[32];
        std::snprintf(share, sizeof share, "%.1f%%", s.total_bytes > 0 ? 100 * r.bytes / s.total_bytes : 0.0);
        std::snprintf(per_visit, sizeof per_visit, "%.3g s", r.seconds_per_visit);
        out << std::llround(r.bytes) << '\t' << share << '\t' << std::llround(r.visits) << '\t' << per_visit << '\t'
            << r.kind << '\t' << (r.filtered ? "-" : "") << '\t' << r.name << '\n';
    }
}

void write_score_filter(const std::filesystem::path& path, const Score& s) {
    write_text_file(path, [&](std::ostream& out) {
        out << "# Regions shorter than " << kFilterSecondsPerVisit * 1e6 << " us per visit and visited at least "
            << kFilterVisits << " times on a rank (hindsight-report --score)\n"
            << "SCOREP_REGION_NAMES_BEGIN\n";
        // A rule needs a pattern: none at all when nothing is to be left out.
        const bool any = std::any_of(s.regions.begin(), s.regions.end(), [](const ScoreRegion& r) { return r.filtered; });
        if (any) out << "  EXCLUDE MANGLED\n";
        for (const ScoreRegion& r : s.regions)
            if (r.filtered) out << "    " << literal_pattern(r.mangled) << '\n';
        out << "SCOREP_REGION_NAMES_END\n";
    });
}

}  // namespace hindsight::report
