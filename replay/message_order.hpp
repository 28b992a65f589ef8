// Whether the recorded order of sends and receives between two ranks could
// have happened. A blocking receive waits for its send; if rank A receives
// message k from B before it sends message j to B, while B receives j
// before it sends k, each waits for the other: no run records that, and a
// replay would wait for ever. This check finds such messages before any
// replay, from the positions of the messages in each rank's event order,
// so that pairing (pairing.hpp) can leave them out.
// A message a rank sends to itself (a periodic boundary on one rank, a
// transpose's diagonal block) is a pair of its own: its receive must come
// after its send.
//
// Cycles through three or more ranks, or through collectives, are not
// looked for: they need the whole graph of the run (the replay's
// --timeout ends such a replay).
#pragma once

#include <cstdint>
#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::replay {

// Collective over `world`; expects every stream to be as long as its
// peer's (stream_pairing.hpp). The lower rank of each pair checks it: the
// result holds, by peer, the slots (in increasing order) of this rank's
// receives from that peer that wait for a send the peer makes only after
// receiving one of this rank's later sends, for the peers above this rank
// and for itself (a receive of a message to itself before its send);
// nothing for the peers below. Leaving these messages out leaves no such
// pair of messages between the two ranks.
std::vector<std::vector<std::uint32_t>> find_impossible_order(const trace::LocalTrace& trace,
                                                              const trace::MessageSlots& slots, MPI_Comm world,
                                                              ProgressWatch& watch);

}  // namespace hindsight::replay
