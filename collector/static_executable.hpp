// Whether a program can take the collector at all: the collector is a
// shared library that the dynamic linker preloads, and an executable linked
// statically (no program interpreter) never runs the dynamic linker.
#pragma once

#include <string>

namespace hindsight::collect {

// True when `path` is an ELF executable without a program interpreter
// (PT_INTERP): linked statically, LD_PRELOAD has no effect on it. False for
// everything else, scripts and files that cannot be read among them.
bool is_static_executable(const std::string& path);

}  // namespace hindsight::collect
