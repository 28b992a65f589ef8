#include "analyzer/buffer_flushes.hpp"

#include <map>

#include "analyses/metrics.hpp"
#include "common/time_category.hpp"
#include "common/time_format.hpp"

namespace hindsight::analyzer {
namespace {

// Ranks listed by name at most; the rest are counted.
constexpr std::size_t kRanksNamed = 4;

}  // namespace

std::uint64_t BufferFlushes::count() const {
    std::uint64_t n = 0;
    for (const auto& [rank, flushes] : by_rank) n += flushes;
    return n;
}

BufferFlushes buffer_flushes(const cube::Report& report) {
    BufferFlushes found;
    const auto visits = report.find_metric(analyses::info(analyses::Metric::Visits).unique_name);
    // Overhead has no sub-metrics: its own share is its whole value.
    const auto overhead = report.find_metric(analyses::info(analyses::Metric::Overhead).unique_name);
    if (visits == cube::kNone || !report.has_values(visits)) return found;
    std::map<std::int64_t, std::uint64_t> by_rank;
    for (cube::CnodeIndex c = 0; c < report.cnodes().size(); ++c) {
        const cube::Region& region = report.regions()[report.cnodes()[c].region];
        if (!hindsight::is_buffer_flush(region.name, region.paradigm)) continue;
        for (cube::LocationIndex l = 0; l < report.locations().size(); ++l) {
            const double n = report.value(visits, c, l);
            if (n > 0)
                by_rank[report.location_groups()[report.locations()[l].group].rank] += static_cast<std::uint64_t>(n);
            if (overhead != cube::kNone && report.has_values(overhead)) found.seconds += report.value(overhead, c, l);
        }
    }
    found.by_rank.assign(by_rank.begin(), by_rank.end());
    return found;
}

std::string buffer_flush_warning(const BufferFlushes& flushes) {
    if (flushes.by_rank.empty()) return "";
    std::string where;
    for (std::size_t i = 0; i < flushes.by_rank.size() && i < kRanksNamed; ++i)
        where += (i ? ", " : "") + std::to_string(flushes.by_rank[i].second) + " on rank " +
                 std::to_string(flushes.by_rank[i].first);
    if (flushes.by_rank.size() > kRanksNamed)
        where += ", ... (" + std::to_string(flushes.by_rank.size()) + " ranks)";
    const std::uint64_t n = flushes.count();
    return std::to_string(n) + " trace buffer flush" + (n == 1 ? "" : "es") + " (" + where + ", " +
           format_seconds(flushes.seconds) +
           "): the rank stood still while its buffer was written, so waiting and times after a flush are "
           "distorted; a larger trace buffer avoids them";
}

}  // namespace hindsight::analyzer
