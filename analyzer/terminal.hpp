// Whether what this process writes to standard error ends up on a terminal.
#pragma once

namespace hindsight::analyzer {

// True when standard error is a terminal, or a pipe that an ancestor
// process reads and forwards to a terminal: MPI launchers (MPICH's Hydra,
// Open MPI's mpirun) start the ranks with pipes and pass on what comes
// through them, so a rank sees a pipe even when mpiexec runs in a
// terminal. Each ancestor that holds the other end of the pipe is
// followed to its own standard error; the first that does not ends the
// search (`mpiexec ... 2>&1 | tee log` ends at mpiexec's pipe to tee: no
// terminal). Reads /proc; false where it cannot tell.
bool stderr_reaches_terminal();

}  // namespace hindsight::analyzer
