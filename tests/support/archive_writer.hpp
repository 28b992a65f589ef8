// Turns what a TraceBuilder recorded into an OTF2 archive laid out as
// Score-P lays out its traces.
#pragma once

#include <filesystem>

namespace hindsight::testing {

class TraceBuilder;

// Writes dir/traces.otf2, dir/traces.def and dir/traces/; throws
// hindsight::Error naming the archive when OTF2 refuses.
void write_otf2_archive(const TraceBuilder& trace, const std::filesystem::path& dir);

}  // namespace hindsight::testing
