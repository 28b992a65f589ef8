// Where the trace goes. Rank 0 checks and prepares the directory before the
// archive is opened and tells every rank the verdict, so that all ranks
// agree to measure or not to measure.
#pragma once

#include <string>

#include <mpi.h>

namespace hindsight::collect {

// Collective over `comm`. Creates `dir` (with parents) when missing. An
// existing archive there (traces.otf2, traces.def or traces/, also the
// remains of an aborted run) is replaced only with `force`; then
// exactly the archive's files are removed, nothing else in `dir`. Returns
// an empty string when the directory is ready, else the problem
// ("DIR: reason") on every rank.
std::string prepare_output_directory(const std::string& dir, bool force, int rank, MPI_Comm comm);

// Rank 0's part without MPI: checks, then creates or clears the directory.
std::string prepare_output_directory_locally(const std::string& dir, bool force);

}  // namespace hindsight::collect
