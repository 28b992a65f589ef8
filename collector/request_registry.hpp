// Outstanding requests (point-to-point, non-blocking collectives and MPI-IO): what
// the completion event needs to know about a request that MPI_Wait/Test only
// identifies by its handle.
//
// One handle may stand for several outstanding requests: MPICH returns the
// same built-in handle for every operation that completed at once (e.g. a
// small MPI_Isend), and with MPI_THREAD_MULTIPLE a handle one thread's
// completion just freed may already be another thread's new request when
// the first thread's handler looks it up. Each thread completes the
// requests it started, in the order it started them; only a request no
// request of the completing thread stands behind goes to the oldest one of
// another thread (MPI lets any thread complete any request).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <thread>
#include <unordered_map>

#include <mpi.h>
#include <otf2/otf2.h>

namespace hindsight::collect {

struct TrackedRequest {
    // CommDup: an MPI_Comm_idup, whose communicator is recorded when the
    // request completes (CommRegistry::finish_dup).
    // FileIo: a non-blocking MPI-IO operation on handle io_handle, its
    // matching id the request's id.
    // Rma: a request-based one-sided transfer (MPI_Rput & co.) on `window`,
    // its matching id the request's id.
    enum class Kind : std::uint8_t { Send, Recv, Collective, CommDup, FileIo, Rma };
    Kind kind = Kind::Send;
    bool persistent = false;
    bool active = false;       // started and not yet completed
    std::uint64_t id = 0;      // the OTF2 request id of the current activation
    OTF2_CommRef comm = 0;
    std::uint32_t peer = 0;    // send: destination rank in comm; collective: root
    std::uint32_t tag = 0;     // send: tag
    std::uint64_t bytes = 0;   // send: message size; collective: bytes sent
    std::uint64_t received = 0;                          // collective: bytes received
    OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;  // collective: the operation
    // Collective: the local group of its receive sources, taken when it
    // started (Measurement::source_group); UINT32_MAX: none recorded.
    std::uint32_t sources = UINT32_MAX;
    // Collective, in profile mode: the region of the call that started it.
    std::uint32_t started_by = UINT32_MAX;
    std::uint32_t io_handle = 0;  // file I/O: the local I/O handle
    MPI_Win window = MPI_WIN_NULL;  // one-sided: the window
    std::thread::id starter;        // the thread that started it
};

class RequestRegistry {
public:
    // A new started request (Isend, Irecv); returns its id.
    std::uint64_t start(MPI_Request handle, TrackedRequest request) {
        request.id = next_id_++;
        start_with_id(handle, request);
        return request.id;
    }
    // A fresh id, for an operation that needs one before MPI returns its
    // request (an I/O operation's matching id, written at its begin).
    std::uint64_t new_id() { return next_id_++; }
    // A started request whose id was drawn by new_id().
    void start_with_id(MPI_Request handle, TrackedRequest request) {
        request.active = true;
        request.starter = std::this_thread::get_id();
        map_[handle].push_back(request);
    }
    // A persistent request, inactive until MPI_Start.
    void add_persistent(MPI_Request handle, TrackedRequest request) {
        request.persistent = true;
        request.active = false;
        map_[handle] = {request};
    }
    // Starts a persistent request again with a fresh id.
    TrackedRequest* restart(MPI_Request handle) {
        TrackedRequest* r = find(handle);
        if (!r || !r->persistent) return nullptr;
        r->id = next_id_++;
        r->active = true;
        return r;
    }
    // The request behind `handle` that the calling thread completes (see
    // above), or nullptr.
    TrackedRequest* find(MPI_Request handle) {
        const auto it = map_.find(handle);
        if (it == map_.end() || it->second.empty()) return nullptr;
        return &*completed_by_caller(it->second);
    }
    // After completion of find(handle): a persistent request stays known, inactive.
    void completed(MPI_Request handle) {
        const auto it = map_.find(handle);
        if (it == map_.end() || it->second.empty()) return;
        const auto done = completed_by_caller(it->second);
        if (done->persistent) {
            done->active = false;
            return;
        }
        it->second.erase(done);
        if (it->second.empty()) map_.erase(it);
    }
    void forget(MPI_Request handle) { map_.erase(handle); }
    std::size_t size() const { return map_.size(); }

private:
    using Requests = std::deque<TrackedRequest>;
    // The oldest of `requests` (not empty) the calling thread started, else
    // the oldest of all.
    static Requests::iterator completed_by_caller(Requests& requests) {
        const auto own = std::find_if(requests.begin(), requests.end(), [](const TrackedRequest& r) {
            return r.starter == std::this_thread::get_id();
        });
        return own == requests.end() ? requests.begin() : own;
    }

    std::uint64_t next_id_ = 1;
    std::unordered_map<MPI_Request, std::deque<TrackedRequest>> map_;
};

}  // namespace hindsight::collect
