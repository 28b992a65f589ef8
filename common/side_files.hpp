// The files written beside a report ("DIR/analysis.cubex" ->
// "DIR/analysis.communication.json", ...; the analyzer's and the
// collector's profile's): where they go, and writing one atomically
// (common/output_file.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>

namespace hindsight {

// "DIR/analysis.cubex" with suffix ".machines" -> "DIR/analysis.machines".
std::filesystem::path side_file_path(const std::filesystem::path& report, const char* suffix);

// Writes what `body` puts out to `path`, whole or not at all. Throws
// hindsight::Error naming `path` when it cannot be written.
void write_text_file(const std::filesystem::path& path, const std::function<void(std::ostream&)>& body);

}  // namespace hindsight
