// The profile per communicator (after mpisee, seed 004): for every
// communicator and MPI operation on it, how many operations ran, how long
// the ranks spent in them, how many bytes they moved and how long they
// waited. Per-process counts of a collective on a split communicator say
// little; counted per communicator, a collective on a 16-rank communicator
// is one operation with 16 participants.
//
// Computed from one rank's trace and the wait states of the forward pass;
// the analyzer sums the ranks' tables (merge_into). Nothing travels during
// the replay.
#pragma once

#include <cstdint>
#include <vector>

#include "analyses/wait_states.hpp"
#include "common/definitions.hpp"
#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"

namespace hindsight::analyses {

// One MPI operation (the region of the MPI call) on one communicator.
// Trivially copyable: the analyzer gathers the ranks' tables as bytes.
struct CommOperationStats {
    CommId comm = kNoId;
    RegionId region = kNoId;
    // Operations, each counted once: a point-to-point call by the rank
    // that made it, a collective by the communicator's rank 0.
    std::uint64_t operations = 0;
    // Calls of all participating ranks: a collective on n ranks adds n.
    std::uint64_t calls = 0;
    // Time inside those calls, summed over the participating ranks (the
    // unit of the report's Time metric), and the part of it that was a
    // wait state (Late Sender, Late Receiver, the collective patterns).
    Ticks time = 0;
    Ticks waiting = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
};

// Sorted by (comm, region), one entry per pair.
using CommunicatorProfile = std::vector<CommOperationStats>;

// This rank's share. A call is attributed to the communicator of its first
// communication event (an MPI_Waitall completing receives on two
// communicators counts its time on the first; each message's bytes and wait
// on its own). MPI_Init and MPI_Finalize are no operations of the program
// and are left out; non-blocking collectives count their bytes at the call
// that completed them, and no time (their initiating call returns at once).
// On a hybrid rank the worker threads' MPI calls count alike, and the
// messages with a worker on either side, which pairing matched outside the
// store, with their waits (thread_message_waits.hpp).
// `slots` numbers the trace's messages (which are sends).
CommunicatorProfile communicator_profile(const trace::LocalTrace& trace, const trace::MessageSlots& slots,
                                         const WaitStateMap& waits);

// Adds `part` to `total`, entry by entry.
void merge_into(CommunicatorProfile& total, const CommunicatorProfile& part);

}  // namespace hindsight::analyses
