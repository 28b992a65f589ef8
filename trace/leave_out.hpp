// Takes point-to-point and collective events out of a rank's trace, so that
// the replay and every analysis see the trace as if they had never been
// recorded: a message that found no partner, or the collective operations
// of a communicator whose members disagree on them (replay/pairing.hpp
// decides which). The MPI calls that held them stay, with their time: only
// the Send, Recv and CollectiveEnd events go.
//
// The event store is compacted in place and every index into it, or into
// the message and collective tables, is renumbered: the Enter/Leave
// references, the events' table references, the tables' call_enter, the
// collectives' starting calls, the posted and the probed receives, the
// calls of the master's messages paired with a worker's; the
// collectives kept are numbered anew among those their rank started on
// their communicator (Collective::started_as). The source lists stay as
// they are: a collective kept keeps its index into them, and a list no
// collective uses any more costs only its memory. The message slots
// (message_slots.hpp) must be built anew afterwards.
#pragma once

#include <vector>

#include "trace/local_trace.hpp"

namespace hindsight::trace {

// `messages[m]` (by message index; shorter means false beyond its end):
// leave message m out; `collectives` likewise for the collective table.
void leave_out(LocalTrace& trace, const std::vector<bool>& messages, const std::vector<bool>& collectives);

}  // namespace hindsight::trace
