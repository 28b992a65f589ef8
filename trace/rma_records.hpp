// One-sided communication (MPI RMA) as a rank's trace shows it, in side
// tables beside the event store: the transfers (puts, gets, atomic
// operations) with their completions, the group synchronizations of
// general active target epochs (post, start, complete, wait) and the lock
// records of passive target epochs. The collective window operations
// (MPI_Win_create & co., MPI_Win_free, MPI_Win_fence) are no entries here:
// the loader makes them collective operations on the window's
// communicator (CollectiveOp::RmaWinCreate, RmaWinFree, RmaFence), so that
// the replay, the wait states, the delay costs and the critical path treat
// them like any collective.
//
// Windows are named by the trace's RMA_WIN reference, remote ranks by their
// rank in the window's communicator, as OTF2 records them.
#pragma once

#include <cstdint>
#include <vector>

#include "common/clock.hpp"
#include "common/definitions.hpp"
#include "trace/event.hpp"

namespace hindsight::trace {

enum class RmaTransferKind : std::uint8_t { Put, Get, Atomic };

// An RMA_PUT, RMA_GET or RMA_ATOMIC record, with the completion that
// matches it by window and matching id, if the trace has one: the one at
// its target (BLOCKING or REMOTE), else the one at the origin.
struct RmaTransfer {
    std::uint64_t window = 0;
    std::uint64_t matching_id = 0;
    std::uint64_t bytes_sent = 0;      // to the target: a put's bytes, an atomic's operand
    std::uint64_t bytes_received = 0;  // from the target: a get's bytes, an atomic's result
    Ticks issued = 0;
    Ticks completed = kNotCompleted;   // of its RMA_OP_COMPLETE_* record
    static constexpr Ticks kNotCompleted = -1;
    EventIndex call_enter = kNoEvent;         // Enter of the call that issued it (MPI_Put, ...)
    EventIndex completing_call = kNoEvent;   // Enter of the call that completed it; valid where completed
    std::uint32_t remote = 0;          // the target's rank in the window's communicator
    CommId comm = kNoId;               // the window's communicator, to name the target in world ranks
    RmaTransferKind kind = RmaTransferKind::Put;
};

// An RMA_GROUP_SYNC record: the call (MPI_Win_post, _start, _complete,
// _wait, _test; the region's name tells which) synchronized with the group
// `group` on `window`.
struct RmaGroupSync {
    std::uint64_t window = 0;
    Ticks time = 0;
    EventIndex call_enter = kNoEvent;
    GroupId group = kNoId;  // index into Definitions::groups; kNoId where the trace's group is unknown
    std::uint8_t sync_level = 0;  // OTF2_RmaSyncLevel bits
    // Level NONE: the call synchronized nothing (an MPI_Win_test that found
    // the epoch still open).
    bool synchronized() const { return sync_level != 0; }
};

// A lock record of a passive target epoch (MPI_Win_lock & co.).
enum class RmaLockAction : std::uint8_t { Request, Acquire, Try, Release };
struct RmaLock {
    std::uint64_t window = 0;
    std::uint64_t lock_id = 0;
    Ticks time = 0;
    EventIndex call_enter = kNoEvent;
    std::uint32_t remote = 0;  // the target's rank in the window's communicator; kEveryTarget: all of them
    CommId comm = kNoId;       // the window's communicator, to name the target in world ranks
    RmaLockAction action = RmaLockAction::Request;
    bool exclusive = false;    // of Request, Acquire and Try
    // MPI_Win_lock_all's lock of every target (OTF2_UNDEFINED_UINT32).
    static constexpr std::uint32_t kEveryTarget = 0xffffffffu;
};

// An MPI_Win_fence: its call and window (its collective operation is in
// LocalTrace::collectives), for what happened in the epoch it ends.
struct RmaFence {
    std::uint64_t window = 0;
    EventIndex call_enter = kNoEvent;
};

struct RmaRecords {
    std::vector<RmaTransfer> transfers;     // in the order they were issued
    std::vector<RmaFence> fences;           // in stream order
    std::vector<RmaGroupSync> group_syncs;  // in stream order
    std::vector<RmaLock> locks;             // in stream order

    bool empty() const { return transfers.empty() && group_syncs.empty() && locks.empty() && fences.empty(); }
    // Applies `moved` to every event index kept here (trace/leave_out.cpp).
    template <typename Moved>
    void move_calls(Moved&& moved) {
        for (RmaTransfer& t : transfers) {
            t.call_enter = moved(t.call_enter);
            t.completing_call = moved(t.completing_call);
        }
        for (RmaGroupSync& s : group_syncs) s.call_enter = moved(s.call_enter);
        for (RmaFence& f : fences) f.call_enter = moved(f.call_enter);
        for (RmaLock& l : locks) l.call_enter = moved(l.call_enter);
    }
};

}  // namespace hindsight::trace
