#include "collector/output_directory.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

namespace hindsight::collect {

std::string prepare_output_directory_locally(const std::string& dir, bool force) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path root(dir);
    // Also the remains of a run that never wrote its anchor (MPI_Abort):
    // OTF2 refuses to write where "traces/" exists.
    const char* found = nullptr;
    for (const char* name : {"traces.otf2", "traces.def", "traces"}) {
        if (!found && fs::exists(root / name, ec)) found = name;
    }
    if (found) {
        if (!force) {
            return dir + ": holds a trace already (" + found + "); use --force or HINDSIGHT_FORCE=1 to replace it";
        }
        for (const char* file : {"traces.otf2", "traces.def"}) fs::remove(root / file, ec);
        fs::remove_all(root / "traces", ec);
        if (ec) return dir + ": cannot remove the old trace: " + ec.message();
    }
    fs::create_directories(root, ec);
    if (ec) return dir + ": cannot create the directory: " + ec.message();
    if (!fs::is_directory(root, ec)) return dir + ": is not a directory";
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
        return dir + ": cannot write there: " + std::strerror(errno);
    }
    return {};
}

std::string prepare_output_directory(const std::string& dir, bool force, int rank, MPI_Comm comm) {
    std::string problem = rank == 0 ? prepare_output_directory_locally(dir, force) : std::string();
    int length = static_cast<int>(problem.size());
    PMPI_Bcast(&length, 1, MPI_INT, 0, comm);
    problem.resize(static_cast<std::size_t>(length));
    if (length > 0) PMPI_Bcast(problem.data(), length, MPI_CHAR, 0, comm);
    return problem;
}

}  // namespace hindsight::collect
