// Which OpenMP runtime a program will run on, for the launcher: the
// collector records OpenMP threads through OMPT, which LLVM's libomp
// implements and GCC's libgomp does not. libomp also provides libgomp's
// GOMP_* entry points, so a program built by GCC runs on libomp when the
// launcher preloads it.
#pragma once

#include <string>
#include <vector>

namespace hindsight::collect {

// The libraries an ELF executable names as DT_NEEDED; empty for anything
// else (scripts, files that cannot be read, static executables).
std::vector<std::string> needed_libraries(const std::string& path);

// What the launcher does about a program's OpenMP runtime: the library to
// preload for it (empty for none) and, when its threads cannot be recorded,
// the one line that says why (empty otherwise). `libomp` is LLVM's runtime
// as found when the collector was built (empty when it was not found).
struct OpenMpRuntime {
    std::string preload;
    std::string warning;
};
OpenMpRuntime openmp_runtime_for(const std::string& program_path, const std::string& libomp);

}  // namespace hindsight::collect
