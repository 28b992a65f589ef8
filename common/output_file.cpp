#include "common/output_file.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "common/error.hpp"

namespace hindsight {

namespace fs = std::filesystem;

namespace {

std::string kind_of(fs::file_type type) {
    switch (type) {
        case fs::file_type::directory: return "a directory";
        case fs::file_type::block:
        case fs::file_type::character: return "a device";
        case fs::file_type::fifo: return "a FIFO";
        case fs::file_type::socket: return "a socket";
        default: return "not a regular file";
    }
}

fs::path directory_of(const fs::path& file) {
    return file.has_parent_path() ? file.parent_path() : fs::path(".");
}

// A new file beside `target`, created with O_EXCL: a name no other run and
// no earlier file holds. Never follows a link an attacker may have planted
// under the chosen name.
fs::path create_partial(const fs::path& requested, const fs::path& target) {
    const fs::path directory = directory_of(target);
    static_assert(sizeof(pid_t) <= sizeof(long));
    for (unsigned attempt = 0; attempt < 100; ++attempt) {
        const fs::path partial = directory / ("." + target.filename().string() + ".partial." +
                                              std::to_string(static_cast<long>(getpid())) + "." +
                                              std::to_string(attempt));
        const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            return partial;
        }
        if (errno != EEXIST)
            throw Error(requested.string(), "cannot create a file in " + directory.string() + ": " +
                                                std::strerror(errno));
    }
    throw Error(requested.string(), "cannot find a free name for a temporary file in " + directory.string());
}

}  // namespace

fs::path output_target(const fs::path& requested) {
    if (requested.empty()) throw Error("", "no output file name given");
    std::error_code ec;
    fs::path target = requested;
    const fs::file_status link = fs::symlink_status(requested, ec);
    if (fs::is_symlink(link)) {
        target = fs::canonical(requested, ec);
        if (ec) throw Error(requested.string(), "is a symbolic link that leads nowhere");
    }
    const fs::file_status status = fs::status(target, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw Error(requested.string(), "is " + kind_of(status.type()) + ", not a file a report can replace");
    const fs::path directory = directory_of(target);
    if (!fs::is_directory(directory, ec))
        throw Error(requested.string(), "the directory " + directory.string() + " does not exist");
    return target;
}

void check_output_file(const fs::path& requested) {
    const fs::path partial = create_partial(requested, output_target(requested));
    std::error_code ignored;
    fs::remove(partial, ignored);
}

void write_output_file(const fs::path& requested, const std::function<void(const fs::path& partial)>& write) {
    const fs::path target = output_target(requested);
    const fs::path partial = create_partial(requested, target);
    try {
        write(partial);
    } catch (const Error& e) {
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw Error(requested.string(), e.problem());
    } catch (...) {
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw;
    }
    std::error_code ec;
    fs::rename(partial, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(partial, ignored);
        throw Error(requested.string(), "cannot replace the file: " + ec.message());
    }
}

}  // namespace hindsight
