// Whether the process runs a program without MPI, which the collector then
// measures as one rank on its own, from the start of its OpenMP runtime to
// its exit (doc/collector.md, "OpenMP programs without MPI").
#pragma once

#include <string>

namespace hindsight::collect {

// Whether MPI is or may become part of the process: MPI is initialized, or
// the executable names an MPI library among the libraries it needs (an MPI
// program's OpenMP runtime may start before MPI_Init).
bool mpi_may_come(const std::string& executable);

}  // namespace hindsight::collect
