// Planning a trace from a profile (hindsight-report --score), after
// scorep-score: the size the collector's trace of the same run would have,
// per rank and in all, the trace buffer that holds a rank's events without
// a flush, the regions whose visits would fill it, and a filter that leaves
// out the short, frequent user and compiler regions.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::report {

struct ScoreRegion {
    std::string name;
    std::string mangled;          // the filter's pattern: the canonical (linker) name
    std::string kind;             // "MPI", "USR" (user or compiler regions) or "OTHER"
    double visits = 0;            // over all ranks
    double bytes = 0;             // of its events, over all ranks
    double seconds_per_visit = 0; // inclusive
    bool filtered = false;        // the filter would leave it out
};

struct Score {
    std::vector<double> bytes_of_rank;  // by MPI rank
    double total_bytes = 0;             // with the archive's fixed part
    double filtered_bytes = 0;          // the same with the filter applied
    std::vector<ScoreRegion> regions;   // largest first
};

// Regions shorter than this per visit, and visited at least kFilterVisits
// times on some rank, are what the filter leaves out: their timestamps
// cost more than they tell.
inline constexpr double kFilterSecondsPerVisit = 10e-6;
inline constexpr double kFilterVisits = 1000;

// Throws hindsight::Error naming `path` when `profile` is no profile of
// hindsight-collect --profile (it lacks the trace_events metric).
Score score(const cube::Report& profile, const std::string& path);

void print_score(std::ostream& out, const Score& score);

// A Score-P filter file excluding the regions the score marks as filtered;
// written whole or not at all.
void write_score_filter(const std::filesystem::path& path, const Score& score);

}  // namespace hindsight::report
