// Exact-trace builder for tests: describes a small MPI run event by event,
// with hand-chosen timestamps, and writes it as an OTF2 archive that follows
// Score-P's conventions, so that the analyzer reads it exactly like a real
// measurement. Analysis tests state a scenario here and derive the expected
// wait states from the very timestamps they chose.
//
// Example (rank 1 waits 30 ns for a message from rank 0: a Late Sender):
//
//     TraceBuilder trace(2);
//     trace.rank(0).enter(0, "main").send(50, 60, 1, 7, 1024).leave(100);
//     trace.rank(1).enter(0, "main").recv(20, 70, 0, 7, 1024).leave(100);
//     trace.write(dir);   // dir/traces.otf2, dir/traces.def, dir/traces/
//
// Time: every timestamp is an absolute tick count written to the trace as
// is; the default clock has 1e9 ticks per second (1 tick = 1 ns) and global
// offset 0, so a timestamp t is t ns after the trace's start. Timestamps of
// one rank must not decrease in the order the calls are made; ranks are
// independent of each other.
//
// Where each OTF2 event lands (the semantics analysis tests rely on):
//   send/ssend/bsend/rsend  ENTER at `enter`, MPI_SEND at `enter`, LEAVE at `leave`
//   recv                    ENTER at `enter`, MPI_RECV at `leave`, LEAVE at `leave`
//   sendrecv                MPI_SEND at `enter`, MPI_RECV at `leave`
//   isend                   MPI_ISEND at `enter` of MPI_Isend
//   irecv                   MPI_IRECV_REQUEST at `enter` of MPI_Irecv
//   wait/waitall/test       MPI_ISEND_COMPLETE / MPI_IRECV of each completed
//                           request at `leave`, just before LEAVE (in the
//                           order the requests are given); an unsuccessful
//                           test writes MPI_REQUEST_TEST at `leave`
//   collectives             MPI_COLLECTIVE_BEGIN at `enter` (right after
//                           ENTER), MPI_COLLECTIVE_END at `leave` (right
//                           before LEAVE)
//   file_io                 IO_OPERATION_BEGIN at `enter`, IO_OPERATION_COMPLETE
//                           at `leave` (matching id: a new request id)
//   file_io_start           IO_OPERATION_BEGIN at `enter`, IO_OPERATION_ISSUED
//                           at `leave`; its IO_OPERATION_COMPLETE where
//                           wait/waitall/test completes the request
//   win_create, win_free,   RMA_COLLECTIVE_BEGIN at `enter`, RMA_COLLECTIVE_END
//   win_fence               at `leave` (CREATE_HANDLE with RMA_WIN_CREATE just
//                           before it, DESTROY_HANDLE with RMA_WIN_DESTROY just
//                           after it, BARRIER); a fence first completes the
//                           rank's pending transfers on the window
//                           (RMA_OP_COMPLETE_BLOCKING at `leave`)
//   put, get                RMA_PUT / RMA_GET at `enter` (matching id: a new
//                           request id), pending until the call that ends
//                           its epoch (fence, win_complete, win_unlock)
//   win_post, win_start,    RMA_GROUP_SYNC at `leave` naming the partners as
//   win_complete, win_wait  a group of world ranks; win_complete first
//                           completes the pending transfers on the window
//   win_lock, win_unlock    RMA_REQUEST_LOCK at `enter`; RMA_RELEASE_LOCK at
//                           `leave` after completing the pending transfers to
//                           that target
// Events that share a timestamp keep the order in which they were added.
//
// Ranks: `dest`, `source` and `root` are ranks in the given communicator
// (as OTF2 records them), not world ranks. Location id == location group
// id == world rank.
//
// Bytes of the collective shorthands follow Score-P's accounting (intra-
// communicators, no MPI_IN_PLACE). `bytes` is the size of the call's own
// data block (count x type size, per peer where MPI has one per peer); with
// N the communicator size and r the caller's rank in it:
//   barrier                       sent 0,          received 0
//   bcast, scatter     at root    sent N*bytes,    received bytes
//                      elsewhere  sent 0,          received bytes
//   reduce, gather     at root    sent bytes,      received N*bytes
//                      elsewhere  sent bytes,      received 0
//   allreduce, allgather, alltoall, reduce_scatter_block
//                                 sent N*bytes,    received N*bytes
//   scan                          sent (N-r)*bytes,   received (r+1)*bytes
//   exscan                        sent (N-r-1)*bytes, received r*bytes
// Use collective() to record any other numbers.
//
// Regions: names starting with "MPI_" become MPI regions (paradigm MPI,
// canonical name = name, file "MPI") with the role Score-P gives them
// (BARRIER, COLL_ONE2ALL, COLL_ALL2ONE, COLL_ALL2ALL, COLL_OTHER,
// POINT2POINT, FUNCTION, ...; like Score-P, MPI_Wait*/MPI_Test* are
// FUNCTION); kBufferFlushRegion is the measurement system's ARTIFICIAL
// region, as Score-P and the collector record a flush of the trace buffer;
// any other name is a USER region with role FUNCTION. Only regions that
// occur are defined.
//
// Requests: ids count 1, 2, ... per rank, in the order requests are made.
//
// OpenMP threads (TraceBuilder::set_threads): every rank gets worker
// threads 1 .. n-1 besides its master, written in Score-P's conventions:
// location ids (thread << 32) | rank, named "OMP thread t", in the rank's
// location group after the master; an OpenMP COMM_LOCATIONS group of all
// thread locations and per rank a team communicator over its threads, which
// the team records name. thread(r, t) records a worker's events (regions and
// the thread records below); a worker must have nothing outside its teams.
// Names starting with "!$omp" become OpenMP regions with Score-P's roles
// (parallel, barrier, implicit barrier, critical, critical sblock, loop),
// "omp_*" ones OpenMP API functions (role wrapper).
//
// Misuse (time going backwards, negative time, leave without enter, a
// region still open at write(), an unknown request, a rank outside its
// communicator, ...) throws hindsight::Error naming the rank and problem.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <otf2/OTF2_Events.h>

#include "common/clock.hpp"
#include "tests/support/recorded_events.hpp"

namespace hindsight::testing {

using Ticks = hindsight::Ticks;
using RequestId = std::uint64_t;

// Handle of a communicator in the builder; `id` is its OTF2 comm id.
struct Comm {
    std::uint32_t id = 0;
    friend bool operator==(Comm, Comm) = default;
};

inline constexpr const char* kBufferFlushRegion = "TRACE BUFFER FLUSH";

// Handle of an MPI-IO file handle in the builder (TraceBuilder::file);
// `id` is its OTF2 IoHandle id.
struct IoHandle {
    std::uint32_t id = 0;
};

// Handle of an MPI RMA window in the builder (TraceBuilder::window): `id`
// is its OTF2 RmaWin id, `comm` the communicator it was created with.
struct RmaWindow {
    std::uint32_t id = 0;
    Comm comm;
};

inline constexpr Comm kWorld{0};  // MPI_COMM_WORLD
inline constexpr Comm kSelf{1};   // MPI_COMM_SELF

// The communicators a trace knows: members are world ranks, in
// communicator rank order. Shared by the builder and its ranks.
class CommTable {
public:
    explicit CommTable(int world_size);

    struct Entry {
        std::string name;
        std::vector<int> world_ranks;  // empty for MPI_COMM_SELF
        std::uint32_t parent;          // OTF2_UNDEFINED_COMM for the roots
        // An intercommunicator: world_ranks holds its first group's
        // `first_group_size` ranks, then its second's; written as Score-P
        // writes one (OTF2's InterComm), its events name ranks of the other
        // group. 0 for an intracommunicator.
        std::size_t first_group_size = 0;
    };

    Comm add(std::vector<int> world_ranks, Comm parent, std::string name);
    // An intercommunicator between two disjoint groups of world ranks.
    Comm add_inter(std::vector<int> first, std::vector<int> second, std::string name);
    const Entry& at(Comm c) const;  // throws on an unknown handle
    const std::vector<Entry>& entries() const { return entries_; }
    int world_size() const { return world_size_; }

    // Number of ranks of `c` (1 for MPI_COMM_SELF).
    int size(Comm c) const;
    // Rank of `world_rank` in `c`; throws when it is no member.
    int rank_of(Comm c, int world_rank) const;

private:
    int world_size_;
    std::vector<Entry> entries_;
};

// The events of one rank (its "Master thread" location), appended in time
// order. Every method returns *this for chaining unless it returns a request.
class RankBuilder {
public:
    RankBuilder(int world_rank, const CommTable& comms);

    int world_rank() const { return rank_; }

    // --- regions -----------------------------------------------------------
    RankBuilder& enter(Ticks t, const std::string& region);
    RankBuilder& leave(Ticks t);  // leaves the innermost open region
    // A region with nothing inside it.
    RankBuilder& region(Ticks enter, Ticks leave, const std::string& name);

    // PROGRAM_BEGIN must be the rank's first event, PROGRAM_END its last.
    RankBuilder& program_begin(Ticks t, std::vector<std::string> arguments = {});
    RankBuilder& program_end(Ticks t, std::int64_t exit_status = 0);

    // --- MPI calls (ENTER/LEAVE of the MPI region plus its events) ---------
    RankBuilder& init(Ticks enter, Ticks leave);      // MPI_Init
    RankBuilder& finalize(Ticks enter, Ticks leave);  // MPI_Finalize

    // `region` may name another blocking send: MPI_Ssend, MPI_Bsend, ...
    RankBuilder& send(Ticks enter, Ticks leave, int dest, std::uint32_t tag, std::uint64_t bytes,
                      Comm c = kWorld, const std::string& region = "MPI_Send");
    RankBuilder& recv(Ticks enter, Ticks leave, int source, std::uint32_t tag,
                      std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& sendrecv(Ticks enter, Ticks leave, int dest, std::uint32_t send_tag,
                          std::uint64_t send_bytes, int source, std::uint32_t recv_tag,
                          std::uint64_t recv_bytes, Comm c = kWorld);

    // Non-blocking calls return the request id their completion refers to.
    RequestId isend(Ticks enter, Ticks leave, int dest, std::uint32_t tag, std::uint64_t bytes,
                    Comm c = kWorld, const std::string& region = "MPI_Isend");
    RequestId irecv(Ticks enter, Ticks leave, int source, std::uint32_t tag,
                    std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& wait(Ticks enter, Ticks leave, RequestId request);
    RankBuilder& waitall(Ticks enter, Ticks leave, const std::vector<RequestId>& requests);
    // MPI_Test; `completed` says whether the request completes in this call.
    RankBuilder& test(Ticks enter, Ticks leave, RequestId request, bool completed);

    // Any collective; `region` must be an MPI collective ("MPI_Bcast", ...).
    // The blocking neighborhood collectives (MPI_Neighbor_*) are written
    // with the operation ALLTOALLV, as Hindsight's collector records them.
    // `root` is a rank in `c`, or -1 for collectives without a root.
    RankBuilder& collective(Ticks enter, Ticks leave, const std::string& region, Comm c,
                            int root, std::uint64_t sent, std::uint64_t received);
    // Shorthands with Score-P's byte accounting (see the table above).
    RankBuilder& barrier(Ticks enter, Ticks leave, Comm c = kWorld);
    RankBuilder& bcast(Ticks enter, Ticks leave, int root, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& scatter(Ticks enter, Ticks leave, int root, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& reduce(Ticks enter, Ticks leave, int root, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& gather(Ticks enter, Ticks leave, int root, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& allreduce(Ticks enter, Ticks leave, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& allgather(Ticks enter, Ticks leave, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& alltoall(Ticks enter, Ticks leave, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& reduce_scatter_block(Ticks enter, Ticks leave, std::uint64_t bytes,
                                      Comm c = kWorld);
    RankBuilder& scan(Ticks enter, Ticks leave, std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& exscan(Ticks enter, Ticks leave, std::uint64_t bytes, Comm c = kWorld);

    // --- MPI-IO, as Score-P records it --------------------------------------
    // A blocking read (`read`) or write of `bytes` on `file` by the call
    // `region` ("MPI_File_write_at_all"), collective or not (the flag of
    // its IO_OPERATION_BEGIN); the completion reports `bytes` done.
    RankBuilder& file_io(Ticks enter, Ticks leave, const std::string& region, IoHandle file, bool read,
                         bool collective, std::uint64_t bytes);
    // A non-blocking one (MPI_File_iread_at, ...; with `collective`, a
    // split or non-blocking collective one): returns the request whose
    // completion (wait, waitall, test) reports `bytes` done.
    RequestId file_io_start(Ticks enter, Ticks leave, const std::string& region, IoHandle file, bool read,
                            bool collective, std::uint64_t bytes);
    // The completion of the split collective operation `request` in its
    // _end call `region` (MPI_File_write_all_end, ...).
    RankBuilder& file_io_end(Ticks enter, Ticks leave, const std::string& region, RequestId request);

    // --- MPI RMA (one-sided communication), as Score-P records it ----------
    // `target` and the ranks of `partners` are ranks in the window's
    // communicator. `region` may name another call of the same kind
    // (MPI_Win_allocate, MPI_Accumulate for a put, ...).
    RankBuilder& win_create(Ticks enter, Ticks leave, RmaWindow w, const std::string& region = "MPI_Win_create");
    RankBuilder& win_free(Ticks enter, Ticks leave, RmaWindow w);
    RankBuilder& win_fence(Ticks enter, Ticks leave, RmaWindow w);
    RankBuilder& put(Ticks enter, Ticks leave, RmaWindow w, int target, std::uint64_t bytes,
                     const std::string& region = "MPI_Put");
    RankBuilder& get(Ticks enter, Ticks leave, RmaWindow w, int target, std::uint64_t bytes);
    RankBuilder& win_post(Ticks enter, Ticks leave, RmaWindow w, const std::vector<int>& partners);
    RankBuilder& win_start(Ticks enter, Ticks leave, RmaWindow w, const std::vector<int>& partners);
    RankBuilder& win_complete(Ticks enter, Ticks leave, RmaWindow w, const std::vector<int>& partners);
    RankBuilder& win_wait(Ticks enter, Ticks leave, RmaWindow w, const std::vector<int>& partners);
    RankBuilder& win_lock(Ticks enter, Ticks leave, RmaWindow w, int target, bool exclusive);
    RankBuilder& win_unlock(Ticks enter, Ticks leave, RmaWindow w, int target);
    // MPI_Win_flush: completes the transfers to `target` issued so far.
    RankBuilder& win_flush(Ticks enter, Ticks leave, RmaWindow w, int target);
    // MPI_Win_flush_local: completes them at the origin only
    // (RMA_OP_COMPLETE_NON_BLOCKING); they stay pending, and the call that
    // completes them at the target writes RMA_OP_COMPLETE_REMOTE.
    RankBuilder& win_flush_local(Ticks enter, Ticks leave, RmaWindow w, int target);

    // --- low level: single events, only inside an open region --------------
    RankBuilder& send_event(Ticks t, int dest, std::uint32_t tag, std::uint64_t bytes,
                            Comm c = kWorld);
    RankBuilder& recv_event(Ticks t, int source, std::uint32_t tag, std::uint64_t bytes,
                            Comm c = kWorld);
    RequestId isend_event(Ticks t, int dest, std::uint32_t tag, std::uint64_t bytes,
                          Comm c = kWorld);
    // MPI_IRECV_REQUEST; the receive's envelope is given to irecv_event.
    RequestId irecv_request_event(Ticks t);
    RankBuilder& isend_complete_event(Ticks t, RequestId request);
    RankBuilder& irecv_event(Ticks t, RequestId request, int source, std::uint32_t tag,
                             std::uint64_t bytes, Comm c = kWorld);
    // The same two completions with the request written as given,
    // unchecked and left pending: for tests of how the analyzer treats a
    // completion of a request the trace never showed started.
    RankBuilder& isend_complete_event_raw_request(Ticks t, RequestId request);
    RankBuilder& irecv_event_raw_request(Ticks t, RequestId request, int source, std::uint32_t tag,
                                         std::uint64_t bytes, Comm c = kWorld);
    RankBuilder& request_test_event(Ticks t, RequestId request);
    RankBuilder& request_cancelled_event(Ticks t, RequestId request);
    RankBuilder& collective_begin_event(Ticks t);
    // `root` is a rank in `c`, or -1 for none (written as OTF2_UNDEFINED_UINT32).
    RankBuilder& collective_end_event(Ticks t, OTF2_CollectiveOp op, Comm c, int root,
                                      std::uint64_t sent, std::uint64_t received);
    // The same with the root written as given, unchecked: for tests of how
    // the analyzer treats a root no communicator has.
    RankBuilder& collective_end_event_raw_root(Ticks t, OTF2_CollectiveOp op, Comm c, std::uint32_t root,
                                               std::uint64_t sent, std::uint64_t received);
    // A non-blocking collective as Score-P records it: the request in the
    // initiating call (MPI_Iallreduce, ...), the operation with its bytes
    // in the call that completes it (MPI_Wait, ...).
    RequestId nonblocking_collective_request_event(Ticks t);
    RankBuilder& nonblocking_collective_complete_event(Ticks t, RequestId request, OTF2_CollectiveOp op, Comm c,
                                                       int root, std::uint64_t sent, std::uint64_t received);

    // The members this rank received data from in its next collective
    // operation (its MPI_COLLECTIVE_END or NON_BLOCKING_COLLECTIVE_COMPLETE,
    // whether written by collective() or the single events above), as ranks
    // of that operation's communicator, in any order: written as Hindsight's
    // receive-sources attribute (common/receive_sources.hpp), a group of
    // the matching world ranks. Without it the event has no such attribute.
    RankBuilder& receive_sources(std::vector<int> comm_ranks);
    // Score-P's I/O operation records, unchecked (no pending request; the
    // completion even outside any region): for tests of operations the
    // analyzer cannot pair.
    RankBuilder& io_operation_begin_event(Ticks t, IoHandle file, OTF2_IoOperationMode mode,
                                          OTF2_IoOperationFlag flags, std::uint64_t bytes,
                                          std::uint64_t matching_id);
    RankBuilder& io_operation_complete_event(Ticks t, IoHandle file, std::uint64_t bytes,
                                             std::uint64_t matching_id);
    // The same with the group's world ranks given as they are written,
    // unchecked: for tests of how the analyzer treats damaged sources.
    RankBuilder& receive_sources_raw_world_ranks(std::vector<int> world_ranks);

    // A CLOCK_OFFSET definition of this location (local definitions): at
    // `time`, this rank's clock was `offset` ticks off the reference clock.
    // Times must not decrease; they are independent of the event times.
    // Event timestamps are written uncorrected; note that OTF2's event
    // reader applies these offsets by default once the location's local
    // definitions have been read (OTF2_EvtReader_ApplyClockOffsets).
    RankBuilder& clock_offset(Ticks time, std::int64_t offset, double stddev = 0.0);

    // --- OpenMP thread records (THREAD_FORK & co., model OpenMP) -------------
    RankBuilder& fork(Ticks t, std::uint32_t threads);  // master, before its team begins
    RankBuilder& join(Ticks t);                         // master, after its team ended
    RankBuilder& team_begin(Ticks t);
    RankBuilder& team_end(Ticks t);
    // Inside an open region (the critical construct, omp_set_lock, ...).
    RankBuilder& acquire_lock(Ticks t, std::uint32_t lock, std::uint32_t order);
    RankBuilder& release_lock(Ticks t, std::uint32_t lock, std::uint32_t order);
    // THREAD_TASK_CREATE, _SWITCH or _COMPLETE of the task `generation`
    // of thread `creating_thread`.
    RankBuilder& task_record(Ticks t, event::ThreadTask::Kind kind, std::uint32_t creating_thread,
                             std::uint32_t generation);

    // What has been recorded, for the writer.
    const std::vector<RecordedEvent>& events() const { return events_; }
    const std::vector<ClockOffset>& clock_offsets() const { return clock_offsets_; }
    // Throws when the rank's record is incomplete (a region still open).
    void check_complete() const;

private:
    [[noreturn]] void fail(const std::string& problem) const;
    void advance_to(Ticks t);  // checks t against the last timestamp
    void require_open_region(const char* what) const;
    // A record of a new request (Record{id}) at `t`; returns the id.
    template <typename Record>
    RequestId request_record(Ticks t, const char* what);
    std::uint32_t peer_rank(Comm c, int rank) const;
    std::uint32_t root_rank(Comm c, int root) const;
    RequestId new_request();
    // IO_OPERATION_BEGIN at `t` of a new request, pending with its completion.
    RequestId begin_file_io(Ticks t, IoHandle file, bool read, bool collective, bool blocking,
                            std::uint64_t bytes);
    // A window call: ENTER, `before` at `enter`, `at_leave` at `leave`, LEAVE.
    RankBuilder& window_call(Ticks enter, Ticks leave, const std::string& region, RmaWindow w,
                             std::vector<EventPayload> at_enter, std::vector<EventPayload> at_leave);
    // RMA_OP_COMPLETE_BLOCKING records (_REMOTE where a local flush came
    // before) of the pending transfers on `w` (to `target` only, if given),
    // which are no longer pending.
    std::vector<EventPayload> complete_transfers(RmaWindow w, std::optional<std::uint32_t> target);
    std::vector<int> world_ranks_of(RmaWindow w, const std::vector<int>& partners) const;
    RankBuilder& group_sync(Ticks enter, Ticks leave, const std::string& region, RmaWindow w,
                            const std::vector<int>& partners, bool completes);
    // Writes the completion event of `request` at `t` and forgets it.
    void complete(Ticks t, RequestId request);
    // An MPI call that completes `requests` at `leave` (MPI_Wait, ...).
    RankBuilder& completion_call(Ticks enter, Ticks leave, const std::vector<RequestId>& requests,
                                 const std::string& region);
    RankBuilder& rooted(Ticks enter, Ticks leave, const std::string& region, int root,
                        std::uint64_t bytes, Comm c, bool root_sends);
    RankBuilder& symmetric(Ticks enter, Ticks leave, const std::string& region,
                           std::uint64_t bytes, Comm c);
    RankBuilder& push(RecordedEvent e);
    // The world ranks of the sources given for the collective on `c` that
    // ends now, if any; forgets them.
    std::optional<std::vector<int>> take_sources(Comm c);

    int rank_;
    const CommTable* comms_;
    std::vector<RecordedEvent> events_;
    std::vector<ClockOffset> clock_offsets_;
    std::vector<std::string> open_regions_;
    std::vector<PendingRequest> pending_;
    std::vector<event::RmaTransfer> pending_transfers_;  // issued, not yet completed
    std::vector<std::uint64_t> completed_at_origin_;     // matching ids of those a local flush completed
    Ticks last_time_ = 0;
    bool ended_ = false;  // PROGRAM_END written
    RequestId next_request_ = 1;
    // Given by receive_sources*() for the next collective's end.
    struct NextSources {
        std::vector<int> ranks;
        bool world = false;  // world ranks already (unchecked), else ranks of the communicator
    };
    std::optional<NextSources> next_sources_;
};

// The whole run: ranks, communicators, machine layout, clock.
// Copying is disabled (ranks refer to the shared communicator table);
// moving is fine, references from rank() stay valid.
class TraceBuilder {
public:
    explicit TraceBuilder(int ranks);
    TraceBuilder(const TraceBuilder&) = delete;
    TraceBuilder& operator=(const TraceBuilder&) = delete;
    TraceBuilder(TraceBuilder&&) = default;
    TraceBuilder& operator=(TraceBuilder&&) = default;
    ~TraceBuilder();

    int size() const { return static_cast<int>(ranks_.size()); }
    Comm world() const { return kWorld; }
    Comm self() const { return kSelf; }
    // A communicator derived from `parent` (e.g. by MPI_Comm_split) whose
    // rank i is world rank world_ranks[i]; members must belong to `parent`.
    // An empty name is written as "" (readers use the "Comm ${id}" template).
    Comm communicator(std::vector<int> world_ranks, Comm parent, std::string name = "");
    // An intercommunicator of two disjoint groups (CommTable::add_inter):
    // its messages name ranks of the other group, as MPI's calls do.
    Comm intercommunicator(std::vector<int> first, std::vector<int> second, std::string name);
    const CommTable& comms() const { return *comms_; }

    // An MPI-IO file handle on the file `file_name`, opened on `comm` (the
    // communicator of its MPI_File_open, which its IoHandle definition
    // names), or on none: written as Score-P defines them (an MPI-IO
    // paradigm, an IoRegularFile, an IoHandle).
    IoHandle file(std::string file_name, std::optional<Comm> comm);
    struct FileEntry {
        std::string name;
        std::optional<Comm> comm;
    };
    const std::vector<FileEntry>& files() const { return files_; }

    // An RMA window created on `comm` (written as Score-P defines one: an
    // RmaWin definition naming the communicator).
    RmaWindow window(Comm comm, std::string name = "window");
    struct WindowEntry {
        std::string name;
        Comm comm;
    };
    const std::vector<WindowEntry>& windows() const { return windows_; }

    RankBuilder& rank(int r);
    const RankBuilder& rank(int r) const;

    // OpenMP: `threads` threads per rank (1: none but the master, the
    // default). thread(r, 0) is rank(r); thread(r, t) its worker t.
    void set_threads(int threads);
    int threads() const { return threads_; }
    RankBuilder& thread(int r, int t);
    const RankBuilder& thread(int r, int t) const;

    // Machine layout: one machine node (default "Linux") holding compute
    // nodes; ranks not placed otherwise live on node "node0".
    void set_machine_name(std::string name);
    void set_node_of_rank(int rank, std::string node_name);
    const std::string& machine_name() const { return machine_; }
    const std::string& node_of_rank(int rank) const;

    // Clock properties: ticks per second (default 1e9) and global offset
    // (default 0); the trace length is last - first event timestamp.
    void set_ticks_per_second(std::uint64_t ticks_per_second);
    void set_global_offset(std::uint64_t offset);
    ClockProperties clock() const;
    // The wall-clock time of the global offset, in nanoseconds since 1970
    // (OTF2's realtime timestamp); by default the trace gives none.
    void set_start_time(std::uint64_t unix_ns) { start_unix_ns_ = unix_ns; }
    std::optional<std::uint64_t> start_time() const { return start_unix_ns_; }

    // Name recorded in PROGRAM_BEGIN events.
    void set_program_name(std::string name);
    const std::string& program_name() const { return program_name_; }

    // Writes dir/traces.otf2, dir/traces.def and dir/traces/ (replacing an
    // earlier archive of that name; `dir` is created when missing).
    void write(const std::filesystem::path& dir) const;

private:
    void check_rank(int r) const;

    std::unique_ptr<CommTable> comms_;
    std::vector<RankBuilder> ranks_;
    int threads_ = 1;
    std::vector<RankBuilder> workers_;  // rank r's worker t at r * (threads_ - 1) + t - 1
    std::vector<std::string> node_of_rank_;
    std::vector<FileEntry> files_;  // IoHandle i
    std::vector<WindowEntry> windows_;  // RmaWindow i
    std::string machine_ = "Linux";
    std::string program_name_ = "program";
    std::uint64_t ticks_per_second_ = 1'000'000'000;
    std::uint64_t global_offset_ = 0;
    std::optional<std::uint64_t> start_unix_ns_;
};

}  // namespace hindsight::testing
