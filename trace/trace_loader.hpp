// Loads one analysis rank's share of an OTF2 archive: the global
// definitions and the event stream of the location that was rank `rank` of
// MPI_COMM_WORLD, and nothing of the other ranks' streams. No MPI here; the
// call tree is still rank-local (see call_tree_unification.hpp).
#pragma once

#include <string>

#include "trace/event_store_builder.hpp"
#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::trace {

struct LoadedTrace {
    LocalTrace trace;
    MessageSlots slots;  // of trace's messages
    LoadStats stats;
};

// `ranks` is the number of analysis ranks, which must equal the trace's.
// Throws hindsight::Error naming `anchor_path` on any problem with the
// archive or the stream.
LoadedTrace load_local_trace(const std::string& anchor_path, int rank, int ranks);

}  // namespace hindsight::trace
