// Pairs the messages that have an OpenMP worker thread on at least one side
// (MPI_THREAD_SERIALIZED or _MULTIPLE): MPI matches per process, whichever
// thread posted, so a worker's send pairs with a receive of any thread of
// its peer, the master's included. The replay walks the masters' event
// stores only; these messages are paired here, before it, in bulk, and
// their waits measured from what pairing learned (the partner's call entry),
// without a replay (analyses/wait_states/worker_mpi_wait_states.hpp).
//
// A rank's messages of one stream (direction, peer, communicator and tag,
// trace/message_slots.hpp) on all its threads are merged in time order,
// the order in which MPI matched them where the program ordered the
// threads' calls (where two threads' calls overlap, the trace cannot tell
// MPI's order, and time order is the estimate). Two ranks tell each other
// which streams between them have a worker's message on either side, then
// every message of those streams: the k-th send of the merged stream pairs
// with the peer's k-th receive. A pair of two masters' messages stays the
// replay's; a master's message paired with a worker's goes out of the
// store into ThreadStreams::paired, as does the worker's. What is left
// unpaired of the workers' messages is tallied like any unpaired message;
// the masters' left over are stream_pairing.hpp's.
//
// Costs one reduction when no rank has a worker's message.
#pragma once

#include <vector>

#include <mpi.h>

#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "replay/progress_watch.hpp"
#include "replay/unpaired.hpp"

namespace hindsight::replay {

// Collective over `world` (rank r holds trace rank r). Fills
// trace.threads.paired; returns, by message index, the master's messages
// paired with a worker's, which the caller leaves out of the store.
std::vector<bool> pair_thread_messages(trace::LocalTrace& trace, const trace::MessageSlots& slots, MPI_Comm world,
                                       ProgressWatch& watch, UnpairedTally& found);

}  // namespace hindsight::replay
