#include "analyzer/terminal.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace hindsight::analyzer {
namespace {

namespace fs = std::filesystem;

// The launcher's chain is short: rank, Hydra proxy, mpiexec.
constexpr int kMaxForwarders = 4;

std::string link_target(const fs::path& link) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(link, ec);
    return ec ? std::string() : target.string();
}

pid_t parent_of(pid_t pid) {
    // /proc/PID/stat: "pid (comm) state ppid ...", comm may hold spaces and ')'.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(line.substr(close + 1));
    char state = 0;
    pid_t parent = 0;
    rest >> state >> parent;
    return parent;
}

bool is_terminal_device(const std::string& target) {
    return target.starts_with("/dev/pts/") || target.starts_with("/dev/tty");
}

bool holds(pid_t pid, const std::string& pipe) {
    std::error_code ec;
    for (const fs::directory_entry& fd : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec))
        if (link_target(fd.path()) == pipe) return true;
    return false;
}

}  // namespace

bool stderr_reaches_terminal() {
    if (isatty(STDERR_FILENO) != 0) return true;
    std::string stream = link_target("/proc/self/fd/2");
    pid_t pid = getpid();
    for (int level = 0; level < kMaxForwarders && stream.starts_with("pipe:"); ++level) {
        pid = parent_of(pid);
        if (pid <= 1 || !holds(pid, stream)) return false;
        stream = link_target("/proc/" + std::to_string(pid) + "/fd/2");
        if (is_terminal_device(stream)) return true;
    }
    return false;
}

}  // namespace hindsight::analyzer
