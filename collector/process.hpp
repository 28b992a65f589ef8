// Facts about the measured process and its files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collector/timer.hpp"

namespace hindsight::collect {

// Path of the running executable ("app" when it cannot be found).
std::string executable_path();
// The program's arguments after its name, as the kernel keeps them
// (/proc/self/cmdline; none when it cannot be read).
std::vector<std::string> program_arguments();
// The timer when the collector library was loaded: the program's start, and
// the first point of the timer's calibration.
TimerSample library_load_sample();
// `path` made absolute against the working directory.
std::string absolute_path(const std::string& path);
// Bytes of the archive in `dir` (anchor, global definitions, traces/).
std::uintmax_t archive_size(const std::string& dir);

}  // namespace hindsight::collect
