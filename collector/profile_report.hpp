// The ranks' profiles, gathered on rank 0, as one CUBE report with Score-P's
// profile metrics (time, visits, bytes_sent, bytes_received, min_time,
// max_time) over the unified call tree, and the per-communicator table the
// trace analysis writes beside its report. No MPI: the gathering is in
// profile_writer.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "collector/call_path_profile.hpp"
#include "collector/definition_unification.hpp"
#include "common/communicator_lines.hpp"
#include "common/cube/report.hpp"
#include "common/trace_size.hpp"

namespace hindsight::collect {

// One rank's profile with its local ids, as it travels to rank 0.
struct RankProfile {
    double seconds_per_tick = 0;
    std::vector<std::uint32_t> tree;  // CallTree::serialize(), local region ids
    std::vector<PathStats> paths;     // by call path id of `tree`
    std::vector<CommOperation> operations;
};

RankProfile rank_profile(const CallPathProfile& profile, double seconds_per_tick);
std::vector<std::byte> serialize(const RankProfile& profile);
// Throws hindsight::Error("rank N", ...) on a truncated or malformed buffer.
RankProfile deserialize_profile(std::span<const std::byte> bytes, int rank);

// The report of all ranks (`ranks[r]` is rank r's), with the ids mapped
// through `defs`' maps. Throws hindsight::Error on a profile that names
// regions or communicators the maps do not hold.
cube::Report profile_report(const UnifiedDefinitions& defs, const std::vector<RankProfile>& ranks);

// The per-communicator table (common/communicator_lines.hpp), as the trace
// analysis makes it of a trace of the same run.
std::vector<CommunicatorLine> profile_communicators(const UnifiedDefinitions& defs,
                                                    const std::vector<RankProfile>& ranks);

}  // namespace hindsight::collect
