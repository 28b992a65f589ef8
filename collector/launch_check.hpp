// The launcher's checks before it starts the program: everything the
// library would refuse at MPI_Init — a bad HINDSIGHT_* variable, an
// unreadable or malformed filter file, a trace directory that holds a trace
// or cannot be written — found while refusing still costs nothing, so that
// a batch job never runs its program unmeasured.
//
// Under mpirun every rank's launcher runs the same checks on the same
// inputs and fails alike. They only look and never create or remove
// anything: the library's rank 0 prepares the directory at MPI_Init only
// after all ranks have agreed on their configuration (each rank is then
// inside MPI_Init, past its launcher), so no launcher can see the
// directory its own job made.
#pragma once

#include <string>

namespace hindsight::collect {

// Reads the configuration from the environment (into which the launcher
// has turned its options) and checks it as the library will; `program` is
// the command to run, which names the default trace directory. Throws
// hindsight::Error with the reason.
void check_before_launch(const std::string& program);

// The executable `program` runs, found as execvp finds it, with links
// resolved as the library's /proc/self/exe resolves them; `program` itself
// when it cannot be found (execvp then fails with its own message).
std::string resolve_program(const std::string& program);

}  // namespace hindsight::collect
