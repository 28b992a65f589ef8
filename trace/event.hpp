// The compact per-rank event record of the analyzer's event store.
//
// Every event of a rank's stream becomes one 16-byte Event; point-to-point
// and collective events point into side tables that hold their attributes,
// so the common ENTER/LEAVE records stay small (target: at most 32 bytes per
// event on average, call path included).
#pragma once

#include <cstdint>

#include "common/call_tree.hpp"
#include "common/clock.hpp"
#include "common/definitions.hpp"

namespace hindsight::trace {

using EventIndex = std::uint32_t;
inline constexpr EventIndex kNoEvent = 0xffffffffu;

enum class EventKind : std::uint8_t {
    Enter,          // a region is entered; cnode = the call path it forms
    Leave,          // a region is left; cnode = the call path being left
    Send,           // point-to-point send (blocking or not); ref -> Message
    Recv,           // point-to-point receive completion (blocking or not); ref -> Message
    CollectiveEnd,  // end of a collective operation; ref -> Collective
};

// Event indexes (and so the `ref` of any event) fit in 29 bits, which leaves
// room for the kind in the same word.
inline constexpr std::uint32_t kMaxEvents = (std::uint32_t{1} << 29) - 1;

struct Event {
    Event() = default;
    // `ref` must be at most kMaxEvents.
    Event(Ticks at, CallPathId path, std::uint32_t reference, EventKind what)
        : time(at), cnode(path), ref(reference), kind(what) {}

    Ticks time = 0;                 // clock-corrected ticks
    CallPathId cnode = kNoCallPath; // call path in force (see EventKind)
    // Enter: index of the matching Leave; Leave: index of the matching Enter;
    // Send/Recv: index into the message table; CollectiveEnd: into the
    // collective table.
    std::uint32_t ref : 29 = 0;
    EventKind kind : 3 = EventKind::Enter;
};
static_assert(sizeof(Event) == 16, "keep the event record compact");

// MPI tags are non-negative ints, so a tag fits in 31 bits.
inline constexpr std::uint32_t kMaxTag = 0x7fffffffu;

struct Message {
    std::uint64_t bytes = 0;
    CommId comm = kNoId;
    std::int32_t partner = -1;           // peer's rank in `comm`: destination of a send, source of a receive
    std::uint32_t tag : 31 = 0;          // at most kMaxTag
    std::uint32_t nonblocking : 1 = 0;   // from MPI_Isend* or completing an MPI_Irecv
    EventIndex call_enter = kNoEvent;    // Enter of the MPI call holding the event
};
static_assert(sizeof(Message) == 24, "keep the message record compact");

// A call of a receive other than the one holding its Recv event, in a side
// table of its own since few receives have one (instead of a field in every
// Message): the call that posted a non-blocking receive (the MPI_Irecv, or
// the MPI_Start of a persistent request, that recorded its
// MPI_IRECV_REQUEST), for the Late Receiver pattern, which compares a send
// with the moment its receive was posted (LocalTrace::posted_receives); the
// blocking probe that waited for the message before the receive took it
// (LocalTrace::probed_receives); the first call of a polling loop that
// tested for the message before a later call completed it
// (LocalTrace::polled_receives).
struct ReceiveCall {
    std::uint32_t message = 0;             // index into the message table
    EventIndex call_enter = kNoEvent;      // Enter of the call
};
static_assert(sizeof(ReceiveCall) == 8, "keep the receive-call record compact");

enum class CollectiveOp : std::uint8_t {
    Barrier,
    Bcast,
    Gather,
    Gatherv,
    Scatter,
    Scatterv,
    Allgather,
    Allgatherv,
    Alltoall,
    Alltoallv,
    Alltoallw,
    Allreduce,
    Reduce,
    ReduceScatter,
    ReduceScatterBlock,
    Scan,
    Exscan,
    // MPI_Init and MPI_Finalize synchronize all ranks implicitly; the loader
    // adds a collective record at the leave of each so that the replay can
    // treat them like any other collective on MPI_COMM_WORLD.
    Init,
    Finalize,
    // A collective MPI-IO operation (MPI_File_write_at_all, the _begin/_end
    // pairs, MPI_File_iread_all, ...): OTF2 records it as an I/O operation
    // with the collective flag on a handle; the loader adds a collective
    // record on the communicator the file was opened with, at the
    // operation's completion, since all its members take part.
    FileIo,
    // The collective operations on an RMA window (OTF2's
    // RMA_COLLECTIVE_BEGIN/_END): its creation (MPI_Win_create,
    // _allocate, _allocate_shared, _create_dynamic), its release
    // (MPI_Win_free) and the fence (MPI_Win_fence), all on the
    // communicator the window was created with (trace/rma_events.cpp).
    RmaWinCreate,
    RmaWinFree,
    RmaFence,
    Other,
};

// The collective operations on an RMA window: they synchronize, but are no
// collective communication of the program (the RMA metrics count them).
constexpr bool is_rma_window_operation(CollectiveOp op) {
    return op == CollectiveOp::RmaWinCreate || op == CollectiveOp::RmaWinFree || op == CollectiveOp::RmaFence;
}

// A collective communication of the program, which the message statistics
// count: not the implicit synchronizations of MPI_Init and MPI_Finalize,
// nor a collective file operation (it moves data to the file, which the
// file metrics count), nor a window's operation.
constexpr bool is_program_collective(CollectiveOp op) {
    return op != CollectiveOp::Init && op != CollectiveOp::Finalize && op != CollectiveOp::FileIo &&
           !is_rma_window_operation(op);
}

struct Collective {
    CommId comm = kNoId;
    std::int32_t root = -1;            // root's rank in `comm`; -1 when the operation has none
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
    EventIndex call_enter = kNoEvent;  // Enter of the MPI call
    CollectiveOp op = CollectiveOp::Other;
    // When this rank's part in the operation began, which the other members
    // wait for: for a blocking operation where it began inside the call
    // (OTF2's MPI_COLLECTIVE_BEGIN; the wait states measure from there as
    // Scalasca does), for a non-blocking one when it was started (its
    // request, in MPI_Iallreduce & co., before `call_enter`'s call);
    // kNoBegin where the trace shows neither (then the call's entry).
    Ticks begin = kNoBegin;
    static constexpr Ticks kNoBegin = -1;
    // A non-blocking operation: started by one call, completed by another
    // (MPI_Wait & co., `call_enter`), where its event stands.
    bool nonblocking = false;
    // For a non-blocking operation, the Enter of the call that started it;
    // kNoEvent where the trace does not show it.
    EventIndex starting_call = kNoEvent;
    // Which of the collective operations this rank started on `comm` it is
    // (0, 1, ...): MPI starts them in the same order on every member, while
    // non-blocking ones may complete in another order.
    std::uint32_t started_as = 0;
    // The members this rank received data from, where the trace says so
    // (Hindsight's collector records them for MPI_Alltoallv/w and the
    // neighborhood collectives, whose counts decide them): an index into
    // LocalTrace::source_lists. kNoSources where the trace does not say:
    // then any member may have sent to it.
    std::uint32_t sources = kNoSources;
    static constexpr std::uint32_t kNoSources = UINT32_MAX;
};

// The bytes an MPI-IO (or other I/O) operation read or wrote, as its
// completion reports them (OTF2's IO_OPERATION_COMPLETE), filed under the
// call that completed it: the reading or writing call itself when it
// blocked, the MPI_Wait/MPI_Test (or _end call) otherwise, as Score-P's
// profile does.
struct FileTransfer {
    std::uint64_t bytes = 0;
    EventIndex call_enter = kNoEvent;  // Enter of the completing call
    bool read = false;                 // else a write
};

}  // namespace hindsight::trace
