// Finds the MPI library's own PMPI_* functions for the wrappers. The
// collector defines every function it intercepts twice, as MPI_* and as
// PMPI_* (MPICH's `use mpi_f08` binding calls PMPI_* directly), so a wrapper
// cannot reach MPI by name: it calls the next definition in the search order
// of the dynamic linker through a pointer found once, when the library is
// loaded.
#pragma once

#include <mpi.h>

namespace hindsight::collect {

// The definition of `name` that the collector's own one hides (or, when the
// program found the MPI library before the collector, the first one), never
// the collector's; nullptr when the MPI library has none.
__attribute__((visibility("hidden"))) void* next_mpi_symbol(const char* name) noexcept;

// What a wrapper of a function missing from the MPI library returns: it
// says so once and fails the call instead of crashing the program.
__attribute__((visibility("hidden"))) int missing_mpi_function() noexcept;

// Sets `pointer` to the MPI library's function `name`.
template <class... Params>
void find_next_mpi(int (*&pointer)(Params...), const char* name) noexcept {
    if (void* found = next_mpi_symbol(name)) {
        pointer = reinterpret_cast<int (*)(Params...)>(found);
    } else {
        pointer = [](Params...) { return missing_mpi_function(); };
    }
}

}  // namespace hindsight::collect
