#include "collector/without_mpi.hpp"

#include <mpi.h>

#include "collector/launch_environment.hpp"
#include "collector/openmp_runtime.hpp"

namespace hindsight::collect {

std::string mpi_may_come(const std::string& executable) {
    int initialized = 0;
    int finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (initialized || finalized) return "MPI is initialized";
    // MPICH's libmpi.so.12 and libmpich.so, Open MPI's libmpi.so.40, and
    // their language bindings (libmpifort, libmpi_cxx) all start so.
    for (const std::string& name : needed_libraries(executable))
        if (name.rfind("libmpi", 0) == 0) return executable + " needs " + name;
    // Several processes without MPI would each write a trace of one rank
    // into the same directory.
    if (const auto size = launched_job_size(); size && *size > 1)
        return "the MPI launcher started " + std::to_string(*size) + " processes";
    return {};
}

}  // namespace hindsight::collect
