#include "collector/output_directory_check.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace hindsight::collect {

namespace fs = std::filesystem;

namespace {

std::string unwritable(const fs::path& dir) {
    if (access(dir.c_str(), W_OK | X_OK) == 0) return {};
    return std::strerror(errno);
}

}  // namespace

const char* existing_archive_part(const std::string& dir) {
    std::error_code ec;
    for (const char* name : {"traces.otf2", "traces.def", "traces"}) {
        if (fs::exists(fs::path(dir) / name, ec)) return name;
    }
    return nullptr;
}

std::string check_output_directory(const std::string& dir, bool force) {
    std::error_code ec;
    const fs::path root = fs::absolute(dir, ec).lexically_normal();
    if (fs::exists(root, ec)) {
        if (!fs::is_directory(root, ec)) return dir + ": is not a directory";
        if (const char* found = existing_archive_part(dir); found && !force) {
            return dir + ": holds a trace already (" + std::string(found) +
                   "); use --force or HINDSIGHT_FORCE=1 to replace it";
        }
        if (const std::string why = unwritable(root); !why.empty()) return dir + ": cannot write there: " + why;
        return {};
    }
    // The library creates the missing part with its parents; whether it can
    // depends on the nearest ancestor that exists.
    fs::path ancestor = root.parent_path();
    while (!fs::exists(ancestor, ec) && ancestor.has_relative_path()) ancestor = ancestor.parent_path();
    if (!fs::is_directory(ancestor, ec)) {
        return dir + ": cannot create the directory: " + ancestor.string() + " is not a directory";
    }
    if (const std::string why = unwritable(ancestor); !why.empty()) {
        return dir + ": cannot create the directory in " + ancestor.string() + ": " + why;
    }
    return {};
}

}  // namespace hindsight::collect
