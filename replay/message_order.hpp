// Whether the recorded order of sends and receives between two ranks could
// have happened. A blocking receive waits for its send; if rank A receives
// message k from B before it sends message j to B, while B receives j
// before it sends k, each waits for the other: no run records that, and a
// replay would wait for ever. This check finds such pairs before any
// replay, from the positions of the messages in each rank's event order.
// A message a rank sends to itself (a periodic boundary on one rank, a
// transpose's diagonal block) is a pair of its own: its receive must come
// after its send.
//
// Cycles through three or more ranks, or through collectives, are not
// looked for: they need the whole graph of the run (the replay's
// --timeout ends such a replay).
#pragma once

#include <optional>
#include <string>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// Collective over `world`; expects check_consistency's message counts to
// agree already. Returns this rank's finding (not agreed among ranks).
std::optional<std::string> find_message_order_cycle(const trace::LocalTrace& trace, const trace::MessageSlots& slots,
                                                    MPI_Comm world, ProgressWatch& watch);

}  // namespace hindsight::replay
