#include "collector/launch_check.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <system_error>

#include "collector/config.hpp"
#include "collector/launch_environment.hpp"
#include "collector/output_directory_check.hpp"
#include "collector/region_filter.hpp"
#include "collector/static_executable.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

namespace fs = std::filesystem;

std::string resolve_program(const std::string& program) {
    std::error_code ec;
    auto resolved = [&](const fs::path& candidate) { return fs::canonical(candidate, ec).string(); };
    if (program.find('/') != std::string::npos) {
        const std::string path = resolved(program);
        return ec ? program : path;
    }
    const char* search = std::getenv("PATH");
    std::istringstream dirs(search ? search : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
        if (fs::is_regular_file(candidate, ec)) {
            const std::string path = resolved(candidate);
            if (!ec) return path;
        }
    }
    return program;
}

namespace {

// The directory the library will write to. Its default is named after the
// executable and the number of ranks; without the number (not started by
// an MPI launcher that says it) the name is unknown.
std::optional<std::string> trace_directory(const Config& config, const std::string& program) {
    if (!config.trace_dir.empty()) return config.trace_dir;
    if (const auto size = launched_job_size()) return default_trace_dir(resolve_program(program), *size);
    return std::nullopt;
}

}  // namespace

void check_before_launch(const std::string& program) {
    if (const std::string path = resolve_program(program); is_static_executable(path)) {
        throw Error(path, "is linked statically: the collector, a shared library, cannot be loaded into it, and "
                          "nothing would be recorded (link it with the shared libraries of MPI and the C library)");
    }
    const Config config = read_config([](const char* name) { return std::getenv(name); });
    if (!config.filter_file.empty()) static_cast<void>(RegionFilter::load(config.filter_file));
    const auto dir = trace_directory(config, program);
    // A default directory of unknown name will be in the working directory:
    // whether that can be written is all there is to check.
    std::string problem;
    if (dir) {
        problem = check_output_directory(*dir, config.force);
    } else {
        std::error_code ec;
        const fs::path here = fs::current_path(ec);
        problem = ec ? "cannot find the working directory: " + ec.message() : check_output_directory(here.string(), true);
    }
    if (!problem.empty()) throw Error("", problem);
}

}  // namespace hindsight::collect
