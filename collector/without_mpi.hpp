// Whether the process runs a program without MPI, which the collector then
// measures as one rank on its own, from the start of its OpenMP runtime to
// its exit (doc/collector.md, "OpenMP programs without MPI").
#pragma once

#include <string>

namespace hindsight::collect {

// Why the process is not measured as a program without MPI; empty when it
// is one: MPI is not initialized, the executable names no MPI library
// among the libraries it needs, and the MPI launcher (if any) started one
// process. An MPI program's OpenMP runtime may start before MPI_Init; the
// executable's libraries tell that MPI is coming.
std::string mpi_may_come(const std::string& executable);

}  // namespace hindsight::collect
