#include "collector/without_mpi.hpp"

#include <mpi.h>

#include "collector/openmp_runtime.hpp"

namespace hindsight::collect {

bool mpi_may_come(const std::string& executable) {
    int initialized = 0;
    int finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    if (initialized || finalized) return true;
    // MPICH's libmpi.so.12 and libmpich.so, Open MPI's libmpi.so.40, and
    // their language bindings (libmpifort, libmpi_cxx) all start so.
    for (const std::string& name : needed_libraries(executable))
        if (name.rfind("libmpi", 0) == 0) return true;
    return false;
}

}  // namespace hindsight::collect
