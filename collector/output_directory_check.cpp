#include "collector/output_directory_check.hpp"

#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "common/shortened.hpp"

namespace hindsight::collect {

namespace fs = std::filesystem;

namespace {

// The longest name the archive adds below its directory: a rank's event
// file, whose number has at most ten digits.
constexpr std::size_t kLongestArchiveName = std::string_view("/traces/2147483647.evt").size();

std::string unwritable(const fs::path& dir) {
    if (access(dir.c_str(), W_OK | X_OK) == 0) return {};
    return std::strerror(errno);
}

// The most bytes a name in the existing directory `dir` may have on its file
// system (NAME_MAX when the system does not say).
std::size_t longest_name_in(const fs::path& dir) {
    const long limit = pathconf(dir.c_str(), _PC_NAME_MAX);
    return limit > 0 ? static_cast<std::size_t>(limit) : NAME_MAX;
}

// The first name among the parts of `path` after `from` (a prefix of it)
// that is longer than `longest`, as a problem; empty when none is.
std::string overlong_name(const fs::path& path, const fs::path& from, std::size_t longest) {
    auto part = path.begin();
    for (auto skip = from.begin(); skip != from.end() && part != path.end(); ++skip) ++part;
    for (; part != path.end(); ++part) {
        const std::string& name = part->native();
        if (name.size() > longest) {
            return "the name '" + shortened(name) + "' has " + std::to_string(name.size()) + " bytes, more than the " +
                   std::to_string(longest) + " the file system allows";
        }
    }
    return {};
}

}  // namespace

const char* existing_archive_part(const std::string& dir) {
    std::error_code ec;
    for (const char* name : {"traces.otf2", "traces.def", "traces"}) {
        // A link counts even when it leads nowhere: OTF2 cannot create the
        // file where it is.
        if (fs::exists(fs::symlink_status(fs::path(dir) / name, ec))) return name;
    }
    return nullptr;
}

std::string check_output_directory(const std::string& dir, bool force) {
    const std::string shown = shortened(dir);
    if (dir.empty()) return "the trace directory's name is empty";
    std::error_code ec;
    fs::path root = fs::absolute(dir, ec).lexically_normal();
    if (ec) return shown + ": " + ec.message();
    if (!root.has_filename() && root.has_relative_path()) root = root.parent_path();  // "dir/"
    // The library writes the archive's files below the directory; their
    // paths must fit into PATH_MAX (counting the terminating zero).
    if (const std::size_t length = root.native().size(); length + kLongestArchiveName >= PATH_MAX) {
        return shown + ": the path is too long (" + std::to_string(length) + " bytes; with the trace's files " +
               "below it, at most " + std::to_string(PATH_MAX - 1 - kLongestArchiveName) + " fit)";
    }
    if (std::string problem = overlong_name(root, {}, NAME_MAX); !problem.empty()) return shown + ": " + problem;

    // From the directory towards "/", the first part that exists decides.
    // Missing parts are what the library creates; anything else that keeps
    // a part from being looked at (a loop of links, no permission to
    // search, a link leading nowhere, which cannot be created) refuses.
    fs::path existing = root;
    for (;;) {
        const fs::file_status status = fs::status(existing, ec);
        if (!ec) break;
        const std::string where = existing == root ? shown : shown + ": " + shortened(existing.string());
        if (ec == std::errc::no_such_file_or_directory) {
            std::error_code link_ec;
            if (fs::is_symlink(fs::symlink_status(existing, link_ec))) {
                const fs::path target = fs::read_symlink(existing, link_ec);
                return where + ": is a link that leads nowhere (to " + shortened(target.string()) + ")";
            }
        } else if (ec != std::errc::not_a_directory) {  // a part above is a file: found below
            return where + ": " + ec.message();
        }
        if (!existing.has_relative_path()) return shown + ": " + ec.message();  // "/" itself is missing
        existing = existing.parent_path();
    }

    if (existing == root) {
        if (!fs::is_directory(root, ec)) return shown + ": is not a directory";
        if (const char* found = existing_archive_part(root.string()); found && !force) {
            // Without its anchor a trace cannot be read: what a run that
            // was interrupted or crashed leaves, which the user must know
            // to see that replacing it loses nothing.
            const std::string what = std::string(found) == "traces.otf2"
                                         ? "holds a trace already (traces.otf2)"
                                         : "holds an incomplete trace (" + std::string(found) +
                                               " without traces.otf2, as a run that was interrupted or crashed "
                                               "leaves it)";
            return shown + ": " + what + "; use --force or HINDSIGHT_FORCE=1 to replace it";
        }
        if (const std::string why = unwritable(root); !why.empty()) return shown + ": cannot write there: " + why;
        return {};
    }
    // The library creates the missing part with its parents; whether it can
    // depends on the nearest ancestor that exists and on its file system.
    const std::string ancestor = shortened(existing.string());
    if (!fs::is_directory(existing, ec)) {
        return shown + ": cannot create the directory: " + ancestor + " is not a directory";
    }
    if (const std::string why = unwritable(existing); !why.empty()) {
        return shown + ": cannot create the directory in " + ancestor + ": " + why;
    }
    if (std::string problem = overlong_name(root, existing, longest_name_in(existing)); !problem.empty()) {
        return shown + ": cannot create the directory: " + problem;
    }
    return {};
}

}  // namespace hindsight::collect
