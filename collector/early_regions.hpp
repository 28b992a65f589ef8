// User and compiler regions entered before MPI_Init (main() above all): they
// are kept until the measurement starts and then written with their own
// timestamps, so that the trace's call tree has its real root.
#pragma once

namespace hindsight::collect {

class Measurement;

// Writes the regions still open from before MPI_Init; called by
// Measurement::start.
void replay_early_regions(Measurement& m);

}  // namespace hindsight::collect
