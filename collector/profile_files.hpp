// The files of a profile run, written by rank 0 at MPI_Finalize, each
// atomically: DIR/profile.cubex, and beside it the communicator tables the
// trace analysis writes beside its report (profile.communicators.csv and
// profile.communication.json, doc/communication.md), so that the report
// page's communication view works on a profile too.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "collector/profile_report.hpp"

namespace hindsight::collect {

inline constexpr const char* kProfileFile = "profile.cubex";

// Returns the path of the report. Throws hindsight::Error naming the file
// that could not be written or the rank whose profile is malformed.
std::filesystem::path write_profile_files(const std::string& dir, const UnifiedDefinitions& defs,
                                          const std::vector<RankProfile>& ranks);

}  // namespace hindsight::collect
