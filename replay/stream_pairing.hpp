// Pairs the messages between every two ranks stream by stream (a stream:
// one direction, peer, communicator and tag, trace/message_slots.hpp). MPI
// matches in order within a stream, so of a stream with s sends and the
// peer's with r receives the first min(s, r) pair up and the rest found no
// partner in the trace: sends whose receive was not recorded (or went
// through a call the trace does not show), receives of sends it lacks,
// messages whose tag or communicator the two sides recorded differently.
// Each rank tells each peer the lengths of its streams with it (a few per
// peer), and both sides draw the same conclusion.
#pragma once

#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "replay/progress_watch.hpp"
#include "replay/unpaired.hpp"

namespace hindsight::replay {

// Collective over `world` (rank r holds trace rank r). Sets, by message
// index, leave[m] for each of this rank's messages that pairs with none;
// tallies them (the sender its sends, the receiver its receives) and the
// paired messages of streams whose sizes differ between the two sides (the
// receiver), which stay.
void pair_streams(const trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                  ProgressWatch& watch, std::vector<bool>& leave, UnpairedTally& found);

}  // namespace hindsight::replay
