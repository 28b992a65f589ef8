// What the generated MPI wrappers record, per kind of function (see
// mpi_functions.spec). A wrapper opens an MpiCall (ENTER now, LEAVE when the
// wrapper returns) and hands the call's arguments to these handlers.
#pragma once

#include <cstdint>
#include <optional>

#include <mpi.h>
#include <otf2/otf2.h>

#include "collector/collective_bytes.hpp"
#include "collector/neighborhood.hpp"
#include "collector/receive_sources.hpp"
#include "collector/measurement.hpp"
#include "collector/mpi_functions.hpp"

namespace hindsight::collect {

inline constexpr int kNoRoot = -1;

// Hidden, like Measurement: the wrappers call and inline it directly
// instead of through the PLT.
class __attribute__((visibility("hidden"))) MpiCall {
public:
    // A test (MPI_Test..., MPI_Iprobe) writes its ENTER only once it is
    // known not to join a run of unsuccessful tests (Measurement::arm_test_run).
    enum Deferred { deferred };

    explicit MpiCall(MpiFunction f) noexcept : live_(Measurement::enter_mpi()) {
        if (live_ && live_->recording()) {
            region_ = live_->mpi_region(f);
            entered_ = timestamp();
            live_->enter_at(region_, entered_);
        }
    }
    MpiCall(MpiFunction f, Deferred) noexcept : live_(Measurement::enter_mpi()) {
        if (live_ && live_->recording()) {
            region_ = live_->mpi_region(f);
            entered_ = timestamp();
            pending_enter_ = true;
        }
    }
    ~MpiCall() {
        if (!live_) return;
        if (region_ != OTF2_UNDEFINED_REGION && !joined_) {
            begin();
            live_->leave(region_);
            if (unsuccessful_) live_->arm_test_run(region_, signature_);
        }
        Measurement::leave_mpi();
    }
    MpiCall(const MpiCall&) = delete;
    MpiCall& operator=(const MpiCall&) = delete;

    // True when this call is being recorded.
    explicit operator bool() const noexcept { return region_ != OTF2_UNDEFINED_REGION; }
    // True while there is a measurement (recording or paused): communicators
    // and persistent requests are tracked even while recording is paused.
    bool live() const noexcept { return live_ != nullptr; }
    Measurement& measurement() const noexcept { return *live_; }
    // When the call was entered (if recorded): the time of the events that
    // say what the call started, which happened before MPI got control.
    std::uint64_t entered() const noexcept { return entered_; }

    // A deferred call: writes its ENTER now (before the events of the call).
    void begin() {
        if (pending_enter_) {
            pending_enter_ = false;
            live_->enter_at(region_, entered_);
        }
    }
    // A recorded test that found nothing, on the requests (or probe
    // envelope) hashed to `signature`: it joins the run of its predecessors
    // (true: record nothing more) or, recorded in full, may start one.
    bool unsuccessful(std::uint64_t signature) {
        if (live_->join_test_run(region_, signature, entered_)) {
            joined_ = true;
            return true;
        }
        unsuccessful_ = true;
        signature_ = signature;
        begin();
        return false;
    }

private:
    Measurement* live_;
    OTF2_RegionRef region_ = OTF2_UNDEFINED_REGION;
    std::uint64_t entered_ = 0;
    bool pending_enter_ = false;
    bool joined_ = false;
    bool unsuccessful_ = false;
    std::uint64_t signature_ = 0;
};

// Identifies the requests of a test, for runs of unsuccessful tests.
std::uint64_t request_signature(int count, const MPI_Request requests[]);

// Point-to-point
void on_send(MpiCall& call, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
void on_recv(MpiCall& call, const MPI_Status& status, int source, MPI_Comm comm);
void on_isend(MpiCall& call, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request request);
void on_irecv(MpiCall& call, int source, int tag, MPI_Comm comm, MPI_Request request);
void on_send_init(MpiCall& call, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request request);
void on_recv_init(MpiCall& call, int source, int tag, MPI_Comm comm, MPI_Request request);
// Matched probes: the probe that matched `message` on `comm`; its receive.
void on_mprobe(MpiCall& call, MPI_Comm comm, MPI_Message message);
void on_mrecv(MpiCall& call, const MPI_Status& status, MPI_Message message);
void on_imrecv(MpiCall& call, MPI_Message message, MPI_Request request);
// MPI_Iprobe: an unsuccessful probe of (source, tag, comm) may join a run
// of unsuccessful tests.
void on_iprobe(MpiCall& call, int source, int tag, MPI_Comm comm, int flag);
void on_start(MpiCall& call, int count, const MPI_Request requests[]);
void on_request_free(MpiCall& call, MPI_Request request);

// Completion: the request handles as they were before the call (MPI resets
// completed ones to MPI_REQUEST_NULL), which of them completed, their statuses.
void on_completed(MpiCall& call, MPI_Request handle, const MPI_Status& status);
// An unsuccessful test of `handle`.
void on_tested(MpiCall& call, MPI_Request handle);

// Collectives
void on_collective_begin(MpiCall& call);
void on_collective_end(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root, CollectiveBytes bytes);
// The same with the peers it received data from (receive_sources.hpp).
void on_collective_end(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root,
                       const CollectiveExchange& exchange);
// A non-blocking collective started: its request now, the operation with its
// bytes when a Wait/Test completes the request (as Score-P records them).
void on_icollective(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root, CollectiveBytes bytes,
                    MPI_Request request);
// The same with its receive sources, taken now: the program may change the
// counts they come from as soon as the starting call returned.
void on_icollective(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root,
                    const CollectiveExchange& exchange, MPI_Request request);

// Communicators
// `reorder`: the argument of a topology constructor (false for the others).
void on_comm_created(MpiCall& call, MPI_Comm comm, MPI_Comm parent, MpiFunction creator, bool reorder);
void on_comm_free(MpiCall& call, MPI_Comm comm);
// MPI_Comm_idup: `comm` is recorded when `request` completes.
void on_comm_idup(MpiCall& call, MPI_Comm comm, MPI_Comm parent, MpiFunction creator, MPI_Request request);

// MPI-IO, as Score-P records it (file_handlers.cpp): handles created at
// MPI_File_open and destroyed at MPI_File_close, files deleted, seeks, and
// each read or write as an I/O operation, begun before MPI gets control
// and completed, with the bytes its status reports, where it completes.
// Unknown handles (MPI_FILE_NULL, one opened while no measurement ran)
// and failed calls record no operation; nothing here calls MPI but to read
// a status or a file position.
void on_file_open(MpiCall& call, MPI_Comm comm, const char* filename, int amode, MPI_File fh);
void on_file_close(MpiCall& call, MPI_File fh, bool closed);
void on_file_delete(MpiCall& call, const char* filename);
void on_file_seek(MpiCall& call, MPI_File fh, MPI_Offset offset, int whence, bool shared);
// Writes IO_OPERATION_BEGIN of `count` elements of `datatype`; `blocking`:
// it completes in this call, else later (Wait/Test, or the split
// operation's _end).
FileOperation on_file_io_begin(MpiCall& call, MPI_File fh, OTF2_IoOperationMode mode, bool collective,
                               bool blocking, int count, MPI_Datatype datatype);
// A blocking operation's end: its completion with the bytes of `status`.
void on_file_io_complete(MpiCall& call, const FileOperation& op, int rc, const MPI_Status& status);
// A non-blocking operation started: issued, and its request tracked.
void on_file_io_issued(MpiCall& call, const FileOperation& op, int rc, MPI_Request* request);
// A split collective's _begin and _end.
void on_file_io_split(MpiCall& call, const FileOperation& op, int rc);
void on_file_io_end(MpiCall& call, MPI_File fh, int rc, const MPI_Status& status);
// Bytes an I/O operation moved, by its status; OTF2_UNDEFINED_UINT64
// where the status does not say.
std::uint64_t file_bytes(const MPI_Status& status);

// MPI RMA, as Score-P records it (rma_handlers.cpp): windows created and
// freed and fences as RMA collective operations on the window, each put,
// get or atomic operation issued before MPI gets control, and completed
// (RMA_OP_COMPLETE_BLOCKING) by the synchronization that completes it.
// Unknown windows (one created while no measurement ran) record nothing.
enum class RmaKind : std::uint8_t { Put, Get, Atomic };
// RMA_COLLECTIVE_BEGIN of a window's creation; of a free or fence of `win`.
void on_rma_collective_begin(MpiCall& call);
void on_rma_collective_begin(MpiCall& call, MPI_Win win);
void on_win_created(MpiCall& call, MPI_Comm comm, MPI_Win win, OTF2_CollectiveOp op);
void on_win_freed(MpiCall& call, MPI_Win win);
void on_win_fence(MpiCall& call, MPI_Win win);
// A transfer of `sent` bytes to and `received` bytes from `target` (a rank
// of the window); `atomic`: the type of an Atomic.
// Returns the transfer's matching id, if it was recorded.
std::optional<std::uint64_t> on_rma_transfer(MpiCall& call, MPI_Win win, int target, RmaKind kind,
                                             OTF2_RmaAtomicType atomic, std::uint64_t sent, std::uint64_t received);
// A request-based transfer (MPI_Rput & co.) of matching id `matching_id`:
// its request completes it at the origin (RMA_OP_COMPLETE_NON_BLOCKING),
// unless a synchronization of the epoch completed it first; the
// synchronization that completes it at its target follows
// (RMA_OP_COMPLETE_REMOTE), as in Score-P's records.
void on_rma_request(MpiCall& call, MPI_Win win, std::uint64_t matching_id, MPI_Request request);
void on_rma_request_completed(Measurement& m, MPI_Win win, std::uint64_t matching_id);
// A synchronization that completes the transfers of `win` (to `target`
// only, if given).
void on_rma_complete(MpiCall& call, MPI_Win win, std::optional<int> target);
// A local flush (MPI_Win_flush_local & co.): completes the transfers of
// `win` (to `target` only, if given) at the origin only.
void on_rma_complete_locally(MpiCall& call, MPI_Win win, std::optional<int> target);
// General active target synchronization, as Score-P records it: an
// RMA_GROUP_SYNC naming the partners' group (world ranks) at the end of
// MPI_Win_post and _start (level PROCESS), of MPI_Win_complete and _wait
// (PROCESS and MEMORY, after the completions of the epoch's transfers), and
// of MPI_Win_test (the same where the epoch ended, else level NONE).
void on_win_epoch_start(MpiCall& call, MPI_Win win, MPI_Group group, RmaEpoch epoch);
void on_win_epoch_end(MpiCall& call, MPI_Win win, RmaEpoch epoch, bool ended);
// Passive target synchronization, as Score-P records it: RMA_REQUEST_LOCK
// at the entry of MPI_Win_lock (on `target`) and _lock_all (on every target,
// shared), RMA_RELEASE_LOCK at the end of MPI_Win_unlock and _unlock_all,
// after the completions of the epoch's transfers. No RMA_ACQUIRE_LOCK: MPI
// says nothing of when the lock was granted.
void on_win_lock(MpiCall& call, MPI_Win win, std::optional<int> target, int lock_type);
void on_win_unlock(MpiCall& call, MPI_Win win, std::optional<int> target);
// `count` elements of `datatype` in bytes (0 if MPI cannot tell).
std::uint64_t rma_bytes(int count, MPI_Datatype datatype);

// --- the Wait/Test family -------------------------------------------------------
// Each calls `pmpi(statuses)` with statuses it can read even when the
// program passed MPI_STATUS(ES)_IGNORE, then records the completions.

template <class Pmpi>
int complete_one(MpiCall& call, MPI_Request* request, int* flag, MPI_Status* status, Pmpi pmpi) {
    const MPI_Request handle = *request;
    MPI_Status own;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = pmpi(st);
    if (rc != MPI_SUCCESS || handle == MPI_REQUEST_NULL) return rc;
    if (!flag || *flag) {
        call.begin();
        on_completed(call, handle, *st);
    } else if (!call.unsuccessful(request_signature(1, &handle))) {
        on_tested(call, handle);
    }
    return rc;
}

// Copies the handles and provides statuses; returns the statuses to use.
MPI_Status* prepare_completion(MpiCall& call, int count, const MPI_Request requests[], MPI_Status statuses[]);

template <class Pmpi>
int complete_all(MpiCall& call, int count, MPI_Request requests[], int* flag, MPI_Status statuses[], Pmpi pmpi) {
    MPI_Status* st = prepare_completion(call, count, requests, statuses);
    const int rc = pmpi(st);
    if (rc != MPI_SUCCESS) return rc;
    const auto& handles = call.measurement().scratch_requests();
    if (flag && !*flag && call.unsuccessful(request_signature(count, handles.data()))) return rc;
    call.begin();
    for (int i = 0; i < count; ++i) {
        if (handles[static_cast<std::size_t>(i)] == MPI_REQUEST_NULL) continue;
        if (!flag || *flag) on_completed(call, handles[static_cast<std::size_t>(i)], st[i]);
        else on_tested(call, handles[static_cast<std::size_t>(i)]);
    }
    return rc;
}

template <class Pmpi>
int complete_any(MpiCall& call, int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status,
                 Pmpi pmpi) {
    prepare_completion(call, count, requests, nullptr);
    MPI_Status own;
    MPI_Status* st = status == MPI_STATUS_IGNORE ? &own : status;
    const int rc = pmpi(st);
    if (rc != MPI_SUCCESS) return rc;
    const auto& handles = call.measurement().scratch_requests();
    if (flag && !*flag && call.unsuccessful(request_signature(count, handles.data()))) return rc;
    call.begin();
    if ((!flag || *flag) && *index != MPI_UNDEFINED) {
        on_completed(call, handles[static_cast<std::size_t>(*index)], *st);
    } else if (flag) {
        for (int i = 0; i < count; ++i) {
            if (handles[static_cast<std::size_t>(i)] != MPI_REQUEST_NULL) on_tested(call, handles[static_cast<std::size_t>(i)]);
        }
    }
    return rc;
}

// `test`: MPI_Testsome, whose call may complete nothing.
template <class Pmpi>
int complete_some(MpiCall& call, int count, MPI_Request requests[], int* outcount, int indices[], bool test,
                  MPI_Status statuses[], Pmpi pmpi) {
    MPI_Status* st = prepare_completion(call, count, requests, statuses);
    const int rc = pmpi(st);
    if (rc != MPI_SUCCESS || *outcount == MPI_UNDEFINED) return rc;
    const auto& handles = call.measurement().scratch_requests();
    if (test && *outcount == 0) {
        if (call.unsuccessful(request_signature(count, handles.data()))) return rc;
        for (int i = 0; i < count; ++i) {
            if (handles[static_cast<std::size_t>(i)] != MPI_REQUEST_NULL) on_tested(call, handles[static_cast<std::size_t>(i)]);
        }
        return rc;
    }
    call.begin();
    for (int k = 0; k < *outcount; ++k) {
        on_completed(call, handles[static_cast<std::size_t>(indices[k])], st[k]);
    }
    return rc;
}

}  // namespace hindsight::collect
