// Makes the ranks' traces fit together before any replay, so that the
// replay cannot wait for a message or a collective that never comes: what
// does not pair up is left out of the analysis (trace/leave_out.hpp), and
// everything else is analyzed.
//  - Messages with an OpenMP worker thread on either side pair first
//    (thread_message_pairing.hpp), outside the replay.
//  - Messages pair stream by stream (stream_pairing.hpp): the sends of a
//    stream beyond its peer's receives, and the receives beyond its sends,
//    are left out; paired messages whose sizes differ stay.
//  - Messages in an order no run can have (message_order.hpp) are left
//    out, and the order checked again, a bounded number of times; should
//    it still find some, all messages between those two ranks go.
//  - Collective operations of a communicator whose members disagree on
//    them are left out (collective_pairing.hpp).
// One problem still stops the analysis: a rank whose PROGRAM_BEGIN names
// no region while another's names its program's region (a damaged name).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "replay/progress_watch.hpp"
#include "replay/unpaired.hpp"

namespace hindsight::replay {

struct Pairing {
    // What stops the analysis, the same on every rank; nullopt when the
    // traces pair (after leaving out what does not).
    std::optional<std::string> problem;
    // What this rank left out, or kept with a warning.
    std::vector<Unpaired> unpaired;
};

// Collective over `world` (rank r holds trace rank r); `slots` are those of
// `trace`, and stay so: both change when anything is left out.
Pairing pair_traces(trace::LocalTrace& trace, trace::MessageSlots& slots, MPI_Comm world, ProgressWatch& watch);

}  // namespace hindsight::replay
