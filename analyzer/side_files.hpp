// The files the analyzer writes beside its report ("DIR/analysis.cubex" ->
// "DIR/analysis.communication.json", ...): where they go, and writing one
// atomically (common/output_file.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>

namespace hindsight::analyzer {

// "DIR/analysis.cubex" with suffix ".machines" -> "DIR/analysis.machines".
std::filesystem::path side_file_path(const std::filesystem::path& report, const char* suffix);

// Writes what `body` puts out to `path`, whole or not at all. Throws
// hindsight::Error naming `path` when it cannot be written.
void write_text_file(const std::filesystem::path& path, const std::function<void(std::ostream&)>& body);

}  // namespace hindsight::analyzer
