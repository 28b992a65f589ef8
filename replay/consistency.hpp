// Checks, before any replay, that the ranks' traces fit together, so that
// the replay cannot wait for a message or a collective that never comes:
//  - per pair of ranks, as many messages sent as received, with the same
//    communicators, tags and sizes (an order-independent checksum), in an
//    order that could have happened (message_order.hpp);
//  - per communicator, every member records the same number and sequence of
//    collective operations (kind and root);
//  - no rank's PROGRAM_BEGIN names no region where another's names its
//    program's region (a damaged name).
#pragma once

#include <optional>
#include <string>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// Collective over `world` (rank r holds trace rank r); `slots` are those of
// `trace`. Returns the same problem on every rank, or nullopt when the
// traces are consistent.
std::optional<std::string> check_consistency(const trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                                             ProgressWatch& watch);

}  // namespace hindsight::replay
