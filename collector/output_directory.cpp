#include "collector/output_directory.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "collector/output_directory_check.hpp"

namespace hindsight::collect {

std::string prepare_output_directory_locally(const std::string& dir, bool force) {
    namespace fs = std::filesystem;
    if (std::string problem = check_output_directory(dir, force); !problem.empty()) return problem;
    std::error_code ec;
    const fs::path root(dir);
    if (existing_archive_part(dir)) {  // and `force`, else the check refused it
        for (const char* file : {"traces.otf2", "traces.def"}) fs::remove(root / file, ec);
        fs::remove_all(root / "traces", ec);
        if (ec) return dir + ": cannot remove the old trace: " + ec.message();
    }
    fs::create_directories(root, ec);
    if (ec) return dir + ": cannot create the directory: " + ec.message();
    // Created by someone else between the check and here.
    if (!fs::is_directory(root, ec)) return dir + ": is not a directory";
    if (access(dir.c_str(), W_OK | X_OK) != 0) return dir + ": cannot write there: " + std::strerror(errno);
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
