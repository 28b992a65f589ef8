// Facts about the measured process and its files.
#pragma once

#include <cstdint>
#include <string>

namespace hindsight::collect {

// Path of the running executable ("app" when it cannot be found).
std::string executable_path();
// Timestamp at which the collector library was loaded: the program's start.
std::uint64_t library_load_time();
// `path` made absolute against the working directory.
std::string absolute_path(const std::string& path);
// Bytes of the archive in `dir` (anchor, global definitions, traces/).
std::uintmax_t archive_size(const std::string& dir);

}  // namespace hindsight::collect
