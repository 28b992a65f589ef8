// The OpenMP threads of one analysis rank: every CPU-thread location of the
// rank's location group, the master (the rank's MPI location) first, each
// as a stream of the events the OpenMP analysis reads (region visits with
// their call paths, fork and join, team begin and end, lock acquisitions).
//
// The master's MPI events stay in LocalTrace::events, where every MPI
// analysis reads them; its stream here repeats its visits (call paths and
// times) merged with its thread records, so that the OpenMP analysis sees
// every thread alike. A rank whose group holds one thread has no streams:
// a pure MPI trace costs nothing here.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/call_tree.hpp"
#include "common/clock.hpp"
#include "common/definitions.hpp"
#include "trace/event.hpp"
#include "trace/rma_records.hpp"

namespace hindsight::trace {

enum class ThreadEventKind : std::uint8_t {
    Enter,      // cnode: the call path entered
    Leave,      // cnode: the call path left
    Fork,       // master only: a parallel region's team is forked (value: team size)
    Join,       // master only: the team is joined
    TeamBegin,  // the thread begins its part in a team (first event of a region)
    TeamEnd,    // ... and ends it (last event of the region)
    Acquire,    // a lock is taken (value: lock id, order: acquisition order)
    Release,    // a lock is given back (order: that of its acquisition)
};

struct ThreadEvent {
    Ticks time = 0;
    CallPathId cnode = kNoCallPath;  // Enter/Leave; for the others the path in force
    std::uint32_t value = 0;
    std::uint32_t order = 0;
    ThreadEventKind kind = ThreadEventKind::Enter;
};

// One MPI record of a worker thread that moved data: a send, a receive or
// a collective operation (a collective file operation's completion too). Its counts and bytes are booked on the thread, by
// the rules of the master's message statistics; a send or receive also says
// what pairing (replay/thread_message_pairing.hpp) needs to find its partner
// and the Late Sender analysis to measure its wait. A worker's collectives
// are not replayed (doc/analyzer.md).
struct ThreadTransfer {
    enum class Kind : std::uint8_t { Send, Receive, Collective };
    CallPathId cnode = kNoCallPath;  // the MPI call holding the record
    std::uint32_t call = kNoPoll;    // that call's Enter (index into the thread's events)
    Kind kind = Kind::Send;
    std::uint64_t sent = 0;      // a send's bytes, or what a collective sent
    std::uint64_t received = 0;  // a receive's bytes, or what a collective received
    CommId comm = kNoId;
    Ticks call_enter = 0;        // when the call holding the record was entered
    Ticks call_leave = 0;        // ... and left
    Ticks time = 0;              // the record's time
    // Sends and receives:
    std::int32_t peer = -1;      // the partner's world rank
    std::uint32_t tag = 0;
    // A receive: when it was posted, by the call itself or by the MPI_Irecv
    // whose request it completes; kUnknownPosting where the trace does not
    // show that request being posted.
    Ticks posted = kUnknownPosting;
    static constexpr Ticks kUnknownPosting = -1;
    // A non-blocking receive that a polling loop tested for before the call
    // that completed it: the Enters (indexes into the thread's events) of
    // the first call that tested it and of the completing call; kNoPoll
    // where no call tested it.
    std::uint32_t first_poll = kNoPoll;
    std::uint32_t completing_call = kNoPoll;
    static constexpr std::uint32_t kNoPoll = 0xffffffffu;
    // Collectives:
    CollectiveOp op = CollectiveOp::Other;
    std::int32_t root = -1;      // the root's rank in `comm`; -1 when the operation has none
    // A collective file operation (CollectiveOp::FileIo): when it began (its
    // IO_OPERATION_BEGIN, in this call or, non-blocking, in the call that
    // started it); Collective::kNoBegin for the others, which begin with
    // their call.
    Ticks begin = Collective::kNoBegin;
};

// A message with an OpenMP worker thread on at least one side, as pairing
// matched it (replay/thread_message_pairing.hpp), seen from this rank: the
// worker's own record, or the master's, which pairing takes out of the
// event store (the replay pairs masters only). What the wait-state analysis
// of such messages reads (analyses/wait_states/worker_mpi_wait_states.hpp).
struct ThreadPairedMessage {
    std::uint32_t thread = 0;        // this rank's thread (ThreadStreams::threads index; 0: the master)
    CallPathId cnode = kNoCallPath;  // the MPI call holding the record
    // That call's Enter: in LocalTrace::events for the master's, in the
    // thread's events for a worker's.
    std::uint32_t call = ThreadTransfer::kNoPoll;
    CommId comm = kNoId;
    std::uint32_t tag = 0;
    // The partner's thread, and the message's number in its stream (the
    // messages between the two ranks on one communicator with one tag, in
    // one direction), the same on both sides: with the ranks, communicator
    // and tag, what names the message on either side.
    std::uint32_t peer_thread = 0;
    std::uint64_t number = 0;
    Ticks call_enter = 0;            // when that call was entered
    Ticks call_leave = 0;            // ... and left
    Ticks time = 0;                  // the record's time
    std::uint64_t bytes = 0;
    std::int32_t peer = -1;          // the partner's world rank
    bool send = false;
    // A receive: when the call holding the matching send was entered.
    Ticks send_call_enter = 0;
    // A send: when the matching receive was posted (ThreadTransfer::posted).
    Ticks receive_posted = ThreadTransfer::kUnknownPosting;
    // A receive a polling loop tested for: the first polling call and the
    // completing call (a worker's: ThreadTransfer::first_poll and
    // completing_call, indices into its events; the master's: the Enters of
    // those calls in the master's store, LocalTrace::polling_call).
    std::uint32_t first_poll = ThreadTransfer::kNoPoll;
    std::uint32_t completing_call = ThreadTransfer::kNoPoll;
};

// This rank's part in a collective operation that an OpenMP worker thread
// of some member made, which pairing left out on every member
// (replay/thread_collective_pairing.hpp): the worker's own part, or the
// master's, taken out of the store, with what pairing learned of the other
// members' parts, for the wait-state analysis of such operations
// (analyses/thread_collective_waits.hpp).
// What one member told the others of its part in such an operation.
struct CollectiveMemberPart {
    CollectiveOp op = CollectiveOp::Other;  // the operation, as its records name it
    std::int32_t root = -1;                 // ... and its root (ThreadCollectivePart::root)
    std::uint32_t thread = 0;  // the member's thread that took part (0: its master)
    Ticks arrival = 0;         // when its part began
    Ticks wait_start = 0;      // from when it could wait: its arrival or its call's entry, whichever is later
    bool sent = false;         // its part sent data
    bool received = false;     // ... received data
};

struct ThreadCollectivePart {
    std::uint32_t thread = 0;        // this rank's thread (0: the master)
    std::uint32_t position = 0;      // the operation's number among its communicator's collectives
    CallPathId cnode = kNoCallPath;  // the MPI call
    CommId comm = kNoId;
    CollectiveOp op = CollectiveOp::Other;
    std::int32_t root = -1;          // the root's rank in `comm`; -1 when the operation has none
    Ticks call_enter = 0;
    Ticks arrival = 0;               // when its part began (Collective::begin, else the call's entry)
    Ticks end = 0;                   // when the call ended
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
    // Over all members: the latest arrival and whose it was (a rank of
    // `comm`), and the earliest end.
    Ticks last_arrival = 0;
    std::int32_t last_member = -1;
    Ticks first_end = 0;
    // This rank's member number in `comm`, and what the rooted and prefix
    // shapes wait for: the root's arrival and whether it sent data; the
    // latest arrival of a member that sent data, of all members and of
    // those numbered up to this one (-1: none sent).
    std::int32_t member = -1;
    bool root_known = false;
    bool root_sent = false;
    Ticks root_arrival = 0;
    std::int32_t last_sender = -1;
    Ticks last_sender_arrival = 0;
    std::int32_t last_lower_sender = -1;
    Ticks last_lower_sender_arrival = 0;
    // Of an n-to-n operation whose members did not all meet: the earliest
    // end of those that synchronized, the last sender and the receivers
    // that began before it (as the replay's analysis picks them).
    Ticks first_synchronized_end = 0;
    // Every member's part as it told it, by its rank in `comm`: whom the
    // operation synchronized, for the delay analysis.
    std::vector<CollectiveMemberPart> members;
};

// A one-sided transfer a worker thread issued (RMA_PUT, _GET, _ATOMIC), at
// the call that issued it, and a file read or write it completed
// (IO_OPERATION_COMPLETE), at the call that completed it: booked on the
// thread by the master's rules (analyses/profile/transfer_counts.hpp).
// Their epochs' and collective operations' wait states are not analyzed.
struct ThreadRmaTransfer {
    CallPathId cnode = kNoCallPath;
    RmaTransferKind kind = RmaTransferKind::Put;
    std::uint64_t bytes_sent = 0;      // a put's bytes, an atomic's operand
    std::uint64_t bytes_received = 0;  // a get's bytes, an atomic's result
};
struct ThreadFileTransfer {
    CallPathId cnode = kNoCallPath;
    std::uint64_t bytes = 0;
    bool read = false;  // else a write
};

struct ThreadStream {
    LocationId location = 0;
    std::string name;           // as the trace names the location ("OMP thread 1")
    std::uint32_t thread = 0;   // the OpenMP thread number, 0 for the master
    std::vector<ThreadEvent> events;
    // A worker's sends, receives and collective operations, in stream
    // order; empty for the master, whose MPI events are in the store.
    std::vector<ThreadTransfer> transfers;
    // A worker's one-sided transfers and file reads and writes.
    std::vector<ThreadRmaTransfer> rma_transfers;
    std::vector<ThreadFileTransfer> file_transfers;
};

struct ThreadStreams {
    // Master first, then the workers in the order the trace defines them.
    std::vector<ThreadStream> threads;
    // MPI records of worker threads that this analysis does not pair: those
    // of their collective operations (their transfers are booked, see above).
    std::uint64_t unpaired_worker_records = 0;
    // The rank's messages with a worker thread on at least one side, each
    // with its partner (filled by pairing, in no particular order).
    std::vector<ThreadPairedMessage> paired;
    // Its parts in the collective operations worker threads made (filled
    // by pairing).
    std::vector<ThreadCollectivePart> collective_parts;

    bool empty() const { return threads.empty(); }
    std::size_t size() const { return threads.size(); }
    // After the call trees were unified: `mapping` takes each rank-local
    // call path id to the global one.
    void renumber_call_paths(std::span<const CallPathId> mapping);
};

}  // namespace hindsight::trace
