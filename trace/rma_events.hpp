// OTF2's records of one-sided communication (MPI RMA), read into the event
// store. Score-P records them so (and Hindsight's readers expect it):
//  - MPI_Win_create & co., MPI_Win_free and MPI_Win_fence: an
//    RMA_COLLECTIVE_BEGIN after the call's ENTER and an RMA_COLLECTIVE_END
//    before its LEAVE, whose operation says which (CREATE_HANDLE or
//    CREATE_HANDLE_AND_ALLOCATE, DESTROY_HANDLE or
//    DESTROY_HANDLE_AND_DEALLOCATE, BARRIER) and which names the window;
//    RMA_WIN_CREATE and RMA_WIN_DESTROY inside the same calls;
//  - general active target synchronization (MPI_Win_post, _start,
//    _complete, _wait, _test): an RMA_GROUP_SYNC naming the window and the
//    group of the partners;
//  - passive target synchronization: RMA_REQUEST_LOCK, RMA_ACQUIRE_LOCK or
//    RMA_TRY_LOCK in MPI_Win_lock & co., RMA_RELEASE_LOCK in MPI_Win_unlock
//    & co., RMA_SYNC in MPI_Win_sync and the flushes;
//  - transfers: RMA_PUT, RMA_GET or RMA_ATOMIC in the call that issues
//    them, completed by records with the same window and matching id (in
//    the same call, or in the synchronization call that ends the epoch):
//    at the origin and the target by an RMA_OP_COMPLETE_BLOCKING; or at the
//    origin first by an _NON_BLOCKING (the request of an MPI_Rput, a local
//    flush) and at the target later by an _REMOTE.
// The loader registers these callbacks with one line
// (set_rma_callbacks<Run>); `Run` runs a record's body on the rank's
// builder under the loader's guard and counts the record as used.
#pragma once

#include <cstdint>
#include <functional>

#include <otf2/otf2.h>

#include "trace/event_store_builder.hpp"

namespace hindsight::trace {

using RmaRunner = OTF2_CallbackCode (*)(void* user_data, const std::function<void(EventStoreBuilder&)>& body);

// RMA_REQUEST_LOCK, RMA_ACQUIRE_LOCK and RMA_TRY_LOCK carry the same
// fields; OTF2 takes plain functions, so one per action.
template <RmaRunner Run, RmaLockAction Action>
OTF2_CallbackCode rma_lock_record(OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
                                  OTF2_RmaWinRef win, std::uint32_t remote, std::uint64_t id, OTF2_LockType type) {
    return Run(ud, [&](EventStoreBuilder& b) { b.rma_lock(t, Action, win, remote, id, type == OTF2_LOCK_EXCLUSIVE); });
}

template <RmaRunner Run>
void set_rma_callbacks(OTF2_EvtReaderCallbacks* c) {
    using Location = OTF2_LocationRef;
    using Time = OTF2_TimeStamp;
    using Attributes = OTF2_AttributeList*;
    OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(c, [](Location, Time t, std::uint64_t, void* ud, Attributes) {
        return Run(ud, [&](EventStoreBuilder& b) { b.rma_collective_begin(t); });
    });
    OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_CollectiveOp op, OTF2_RmaSyncLevel,
              OTF2_RmaWinRef win, std::uint32_t, std::uint64_t, std::uint64_t) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_collective_end(t, op, win); });
        });
    OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
              OTF2_GroupRef group) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_group_sync(t, level, win, group); });
        });
    OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(c, rma_lock_record<Run, RmaLockAction::Request>);
    OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(c, rma_lock_record<Run, RmaLockAction::Acquire>);
    OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(c, rma_lock_record<Run, RmaLockAction::Try>);
    OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint32_t remote,
              std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_lock(t, RmaLockAction::Release, win, remote, id, false); });
        });
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint32_t remote,
              std::uint64_t bytes, std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_transfer(t, RmaTransferKind::Put, win, remote, bytes, 0, id); });
        });
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint32_t remote,
              std::uint64_t bytes, std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_transfer(t, RmaTransferKind::Get, win, remote, 0, bytes, id); });
        });
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint32_t remote,
              OTF2_RmaAtomicType, std::uint64_t sent, std::uint64_t received, std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) {
                b.rma_transfer(t, RmaTransferKind::Atomic, win, remote, sent, received, id);
            });
        });
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_op_complete(t, win, id, "RMA_OP_COMPLETE_BLOCKING", true); });
        });
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_op_complete(t, win, id, "RMA_OP_COMPLETE_NON_BLOCKING", false); });
        });
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef win, std::uint64_t id) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_op_complete(t, win, id, "RMA_OP_COMPLETE_REMOTE", true); });
        });
    // Seen, not analyzed: they tell nothing the wait states use.
    OTF2_EvtReaderCallbacks_SetRmaOpTestCallback(
        c, [](Location, Time t, std::uint64_t, void* ud, Attributes, OTF2_RmaWinRef, std::uint64_t) {
            return Run(ud, [&](EventStoreBuilder& b) { b.rma_record(t, "RMA_OP_TEST"); });
        });
    OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(c, [](Location, Time t, std::uint64_t, void* ud, Attributes,
                                                          OTF2_RmaWinRef) {
        return Run(ud, [&](EventStoreBuilder& b) { b.rma_record(t, "RMA_WIN_CREATE"); });
    });
    OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(c, [](Location, Time t, std::uint64_t, void* ud, Attributes,
                                                           OTF2_RmaWinRef) {
        return Run(ud, [&](EventStoreBuilder& b) { b.rma_record(t, "RMA_WIN_DESTROY"); });
    });
    OTF2_EvtReaderCallbacks_SetRmaSyncCallback(c, [](Location, Time t, std::uint64_t, void* ud, Attributes,
                                                     OTF2_RmaWinRef, std::uint32_t, OTF2_RmaSyncType) {
        return Run(ud, [&](EventStoreBuilder& b) { b.rma_record(t, "RMA_SYNC"); });
    });
    OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(c, [](Location, Time t, std::uint64_t, void* ud, Attributes,
                                                           OTF2_RmaWinRef) {
        return Run(ud, [&](EventStoreBuilder& b) { b.rma_record(t, "RMA_WAIT_CHANGE"); });
    });
}

}  // namespace hindsight::trace
