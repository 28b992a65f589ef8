#include "trace/thread_stream_loader.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "common/error.hpp"
#include "trace/comm_layout.hpp"
#include "trace/otf2_enums.hpp"
#include "trace/rma_events.hpp"

namespace hindsight::trace {

void MasterThreadRecords::add(std::uint64_t time, ThreadEventKind kind, std::uint32_t value, std::uint32_t order) {
    const std::optional<Ticks> t = clock_.correct(time);
    if (!t) throw Error(file_, "a thread record of the master at " + std::to_string(time) + " lies outside the trace");
    records_.push_back({ThreadEvent{*t, kNoCallPath, value, order, kind}, trace_.events.size()});
}

std::vector<Location> worker_locations(const Definitions& definitions, LocationId master) {
    std::vector<Location> workers;
    LocationGroupId group = kNoId;
    for (const Location& l : definitions.locations)
        if (l.id == master) group = l.group;
    if (group == kNoId) return workers;
    for (const Location& l : definitions.locations)
        if (l.group == group && l.id != master && l.name != "VOID") workers.push_back(l);
    return workers;
}

namespace {

// The master's stream: its stored visits in order, its thread records
// slotted in where they were read, each record with the call path in force.
// Also the call path of each fork, in order, where the workers' regions hang.
ThreadStream master_stream(const LocalTrace& trace, const MasterThreadRecords& records,
                           std::vector<CallPathId>& fork_paths) {
    ThreadStream stream;
    stream.location = *trace.definitions.location_of_rank(trace.rank);
    for (const Location& l : trace.definitions.locations)
        if (l.id == stream.location) stream.name = l.name;
    stream.events.reserve(trace.events.size() + records.seen());
    CallPathId current = kNoCallPath;
    std::size_t next = 0;
    const auto slot_in = [&](std::size_t position) {
        for (; next < records.records().size() && records.records()[next].position <= position; ++next) {
            ThreadEvent e = records.records()[next].event;
            e.cnode = current;
            if (e.kind == ThreadEventKind::Fork) fork_paths.push_back(current);
            stream.events.push_back(e);
        }
    };
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        slot_in(i);
        const Event& e = trace.events[i];
        if (e.kind == EventKind::Enter) {
            stream.events.push_back({e.time, e.cnode, 0, 0, ThreadEventKind::Enter});
            current = e.cnode;
        } else if (e.kind == EventKind::Leave) {
            stream.events.push_back({e.time, e.cnode, 0, 0, ThreadEventKind::Leave});
            current = trace.call_tree.node(e.cnode).parent;
        }
    }
    slot_in(trace.events.size());
    return stream;
}

// What reading one worker's records keeps.
struct WorkerSink : CallbackGuard {
    WorkerSink(const TraceDefinitions& d, LocalTrace& t, const ClockCorrection& c, const std::vector<CallPathId>& f,
               ThreadStream& s, std::string where)
        : defs(d), trace(t), clock(c), fork_paths(f), stream(s), file(std::move(where)) {}
    const TraceDefinitions& defs;
    LocalTrace& trace;
    const ClockCorrection& clock;
    const std::vector<CallPathId>& fork_paths;
    ThreadStream& stream;
    std::string file;
    // The open regions' call paths, innermost last, and when each was
    // entered; a team's base (the master's path at its fork, from the
    // team's begin) is the bottom of its part.
    std::vector<CallPathId> open;
    std::vector<Ticks> entered;
    std::vector<std::uint32_t> entered_at;  // each one's Enter in the stream (a team's base: none)
    std::size_t teams = 0;
    std::uint64_t handled = 0;
    std::uint64_t mpi_records = 0;       // all of them
    std::uint64_t unpaired_records = 0;  // those of collective operations (a file's and a window's too)
    // Records of one-sided epochs (synchronizations, completions) and
    // collective operations of a window or file without a communicator of
    // this rank: no wait-state analysis.
    std::uint64_t unanalyzed_records = 0;
    // The file operations begun and not yet completed, by handle and
    // matching id: whether each reads (else writes; other modes move no
    // bytes), is collective, and when it began.
    struct OpenFileOperation {
        OTF2_IoOperationMode mode = OTF2_IO_OPERATION_MODE_READ;
        bool collective = false;
        Ticks begin = 0;
    };
    std::map<std::pair<OTF2_IoHandleRef, std::uint64_t>, OpenFileOperation> open_file_operations;
    // The window operation begun (RMA_COLLECTIVE_BEGIN) and the call it
    // began in (its Enter in the stream), until its end.
    Ticks window_operation_begin = Collective::kNoBegin;
    std::optional<std::uint32_t> window_operation_call;
    std::vector<std::optional<CommLayout>> layouts;  // by communicator, as needed
    // The entries of the calls that posted the open non-blocking receives,
    // by request id (MPI_IRECV_REQUEST), until MPI_IRECV completes them.
    std::unordered_map<std::uint64_t, Ticks> posted_receives;
    // The first call that tested each of them (its Enter in the stream),
    // where a polling loop did (MPI_REQUEST_TEST).
    std::unordered_map<std::uint64_t, std::uint32_t> first_polls;
    // Send requests started (MPI_ISEND) and not yet completed here.
    std::unordered_set<std::uint64_t> open_sends;
    // Completions of requests this thread did not start (request_ends.hpp).
    RequestEnds request_ends;
    std::uint64_t fixups = 0;  // timestamps raised to keep the stream monotonic
    Ticks last = 0;
    bool any = false;

    CallPathId current() const { return open.empty() ? kNoCallPath : open.back(); }
    RegionId current_region() const { return open.empty() ? kNoId : trace.call_tree.node(open.back()).region; }
    // As the master's store checks its records (event_store_builder.hpp):
    // inside the trace's span, and never back in time beyond jitter, which
    // is clamped and counted.
    Ticks corrected(std::uint64_t time) {
        const std::optional<Ticks> t = clock.correct(time);
        if (!t || !clock.window().holds(*t))
            throw Error(file, "a record of " + stream.name + " at " + std::to_string(time) +
                                  " lies outside the trace's time span");
        if (any && *t < last) {
            if (last - *t > ClockCorrection::jitter_tolerance(defs.definitions.clock))
                throw Error(file, "a record of " + stream.name + " at " + std::to_string(time) +
                                      " goes back in time behind the record before it");
            ++fixups;
            return last;
        }
        any = true;
        last = *t;
        return last;
    }
    void push(std::uint64_t time, ThreadEventKind kind, std::uint32_t value = 0, std::uint32_t order = 0) {
        ++handled;
        stream.events.push_back({corrected(time), current(), value, order, kind});
    }
    void enter(std::uint64_t time, OTF2_RegionRef ref) {
        const auto region = defs.region_ids.find(ref);
        if (!region) throw Error(file, stream.name + " enters an undefined region " + std::to_string(ref));
        ++handled;
        const CallPathId path = trace.call_tree.child(current(), *region);
        entered_at.push_back(static_cast<std::uint32_t>(stream.events.size()));
        stream.events.push_back({corrected(time), path, 0, 0, ThreadEventKind::Enter});
        open.push_back(path);
        entered.push_back(last);
    }
    void leave(std::uint64_t time, OTF2_RegionRef ref) {
        const auto region = defs.region_ids.find(ref);
        if (open.empty() || !region || trace.call_tree.node(open.back()).region != *region)
            throw Error(file, stream.name + " leaves region " + std::to_string(ref) + " that it is not in");
        ++handled;
        stream.events.push_back({corrected(time), open.back(), 0, 0, ThreadEventKind::Leave});
        // The transfers of the call being left end with it.
        for (auto t = stream.transfers.rbegin(); t != stream.transfers.rend() && t->cnode == open.back() &&
                                                 t->call_enter == entered.back();
             ++t)
            t->call_leave = last;
        open.pop_back();
        entered.pop_back();
        entered_at.pop_back();
    }
    void team_begin(std::uint64_t time) {
        if (teams >= fork_paths.size())
            throw Error(file, stream.name + " begins more thread teams than its master forked (" +
                                  std::to_string(fork_paths.size()) + ")");
        open.push_back(fork_paths[teams++]);
        push(time, ThreadEventKind::TeamBegin);
        entered.push_back(last);
        entered_at.push_back(ThreadTransfer::kNoPoll);
    }
    void team_end(std::uint64_t time) {
        push(time, ThreadEventKind::TeamEnd);
        if (open.size() != 1)
            throw Error(file, stream.name + " ends a thread team inside a region of it");
        open.pop_back();
        entered.pop_back();
        entered_at.pop_back();
    }
    // A record of the call in force, where the loader files a transfer.
    ThreadTransfer& file_transfer(ThreadTransfer::Kind kind, OTF2_CommRef comm_ref) {
        if (current() == kNoCallPath) throw Error(file, stream.name + " has an MPI record outside any region");
        const auto comm = defs.comm_ids.find(comm_ref);
        if (!comm) throw Error(file, stream.name + " has an MPI record on an undefined communicator");
        return transfer_of_call(kind, *comm);
    }
    ThreadTransfer& transfer_of_call(ThreadTransfer::Kind kind, CommId comm) {
        ThreadTransfer& t = stream.transfers.emplace_back();
        t.cnode = current();
        t.kind = kind;
        t.comm = comm;
        t.call_enter = t.call_leave = entered.back();
        t.call = entered_at.back();
        return t;
    }
    // A collective operation's end, with what it moved.
    void collective(std::uint64_t time, OTF2_CollectiveOp op, OTF2_CommRef comm_ref, std::uint32_t root,
                    std::uint64_t sent, std::uint64_t received) {
        ++mpi_records;
        ++unpaired_records;
        const Ticks at = corrected(time);
        ThreadTransfer& t = file_transfer(ThreadTransfer::Kind::Collective, comm_ref);
        t.time = at;
        t.sent = sent;
        t.received = received;
        t.op = collective_op_from_otf2(op);
        // As the master's store: an intercommunicator's groups name the
        // root differently, so it names none.
        const CommLayout& layout = layout_of(t.comm);
        if (root != OTF2_UNDEFINED_UINT32 && layout.first_group_size == 0) {
            if (root >= static_cast<std::uint32_t>(layout.size()))
                throw Error(file, stream.name + " has a collective operation on " +
                                      defs.definitions.comm_display_name(t.comm) + " with root " +
                                      std::to_string(root) + " outside the communicator");
            t.root = static_cast<std::int32_t>(root);
        }
    }
    void receive_posted(std::uint64_t request) {
        ++mpi_records;
        request_ends.receives_posted = true;
        if (!entered.empty()) posted_receives[request] = entered.back();
    }
    void nonblocking_send(std::uint64_t time, OTF2_CommRef comm_ref, std::uint32_t to, std::uint32_t tag,
                          std::uint64_t bytes, std::uint64_t request) {
        message(true, time, comm_ref, to, tag, bytes);
        open_sends.insert(request);
    }
    void send_completed(std::uint64_t time, std::uint64_t request) {
        ++mpi_records;
        const Ticks at = corrected(time);
        if (open_sends.erase(request) == 0) request_ends.send_completions.push_back({request, at, current_region()});
    }
    // After the stream: the requests started here and not completed here.
    RequestEnds take_request_ends() {
        request_ends.open_sends.assign(open_sends.begin(), open_sends.end());
        request_ends.open_receives.assign(posted_receives.begin(), posted_receives.end());
        return std::move(request_ends);
    }
    // An unsuccessful test of a request: the first for an open receive
    // begins the polling loop that waited for it.
    void request_tested(std::uint64_t request) {
        ++mpi_records;
        if (entered_at.empty() || !posted_receives.contains(request)) return;
        first_polls.try_emplace(request, entered_at.back());
    }
    // A non-blocking receive's completion: posted when its request was.
    void nonblocking_receive(std::uint64_t time, OTF2_CommRef comm_ref, std::uint32_t from, std::uint32_t tag,
                             std::uint64_t bytes, std::uint64_t request) {
        message(false, time, comm_ref, from, tag, bytes);
        ThreadTransfer& receive = stream.transfers.back();
        if (const auto poll = first_polls.find(request); poll != first_polls.end()) {
            receive.first_poll = poll->second;
            receive.completing_call = entered_at.back();
            first_polls.erase(poll);
        }
        Ticks& posted = receive.posted;
        posted = ThreadTransfer::kUnknownPosting;
        const auto posting = posted_receives.find(request);
        if (posting == posted_receives.end()) {
            request_ends.receive_completions.push_back({request, receive.time, current_region(),
                                                        static_cast<std::uint32_t>(stream.transfers.size() - 1)});
            return;
        }
        posted = posting->second;
        posted_receives.erase(posting);
    }
    // A send or receive, with what its pairing needs (the peer as a world
    // rank, as the master's store names it: message_slots.hpp); a blocking
    // receive was posted when its call began.
    void message(bool send, std::uint64_t time, OTF2_CommRef comm_ref, std::uint32_t partner, std::uint32_t tag,
                 std::uint64_t bytes) {
        ++mpi_records;
        const Ticks at = corrected(time);
        if (tag > kMaxTag) throw Error(file, stream.name + " has a message with tag " + std::to_string(tag) +
                                                 ", beyond the range of MPI tags");
        ThreadTransfer& t = file_transfer(send ? ThreadTransfer::Kind::Send : ThreadTransfer::Kind::Receive, comm_ref);
        (send ? t.sent : t.received) = bytes;
        if (!send) t.posted = t.call_enter;
        t.time = at;
        t.tag = tag;
        t.peer = peer_world_rank(t.comm, partner);
        if (t.peer < 0)
            throw Error(file, stream.name + " has a message with rank " + std::to_string(partner) + " of " +
                                  defs.definitions.comm_display_name(t.comm) + ", which has no such rank");
    }
    // A one-sided transfer, issued by the call in force.
    void rma_transfer(RmaTransferKind kind, std::uint64_t sent, std::uint64_t received) {
        ++mpi_records;
        if (current() == kNoCallPath) throw Error(file, stream.name + " has an MPI record outside any region");
        stream.rma_transfers.push_back({current(), kind, sent, received});
    }
    void file_operation_begin(std::uint64_t time, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                              OTF2_IoOperationFlag flags, std::uint64_t matching_id) {
        ++mpi_records;
        open_file_operations[{handle, matching_id}] = {mode, (flags & OTF2_IO_OPERATION_FLAG_COLLECTIVE) != 0,
                                                       corrected(time)};
    }
    // A file operation's completion: its bytes at the call that completed
    // it, as the master's; a collective one is also a collective operation
    // of the handle's communicator, as in the master's store. One never
    // begun, or outside any call, is not analyzed.
    void file_operation_complete(std::uint64_t time, OTF2_IoHandleRef handle, std::uint64_t bytes,
                                 std::uint64_t matching_id) {
        const Ticks at = corrected(time);
        const auto open = open_file_operations.find({handle, matching_id});
        if (open == open_file_operations.end()) {
            ++unanalyzed_records;
            return;
        }
        const OpenFileOperation operation = open->second;
        open_file_operations.erase(open);
        if (current() == kNoCallPath) {
            ++unanalyzed_records;
            return;
        }
        if (moved_file_bytes(operation.mode, bytes))
            stream.file_transfers.push_back({current(), bytes, operation.mode == OTF2_IO_OPERATION_MODE_READ});
        if (operation.collective)
            handle_operation(at, CollectiveOp::FileIo, defs.io_handle_comm(handle), operation.begin);
        else
            ++mpi_records;
    }
    void window_operation_started(std::uint64_t time) {
        ++mpi_records;
        ++unpaired_records;
        window_operation_begin = corrected(time);
        window_operation_call = entered_at.empty() ? std::nullopt : std::optional(entered_at.back());
    }
    // A window's creation, release or fence: a collective operation of the
    // window's communicator, as in the master's store, which began at its
    // RMA_COLLECTIVE_BEGIN in the same call (else at the call's entry).
    void window_operation_ended(std::uint64_t time, OTF2_CollectiveOp op, OTF2_RmaWinRef win) {
        const Ticks at = corrected(time);
        const bool begun_here = !entered_at.empty() && window_operation_call == entered_at.back();
        const Ticks begin = begun_here ? window_operation_begin : Collective::kNoBegin;
        window_operation_begin = Collective::kNoBegin;
        window_operation_call.reset();
        if (const std::optional<CollectiveOp> operation = rma_window_operation(op))
            handle_operation(at, *operation, defs.rma_win_comm(win), begin);
        else
            ++unanalyzed_records;
    }
    // A collective operation of a file handle's or a window's communicator
    // `comm`, ended at `at` in the call in force, begun at `begin`; not
    // analyzed where this rank is no member of it (or the trace names none).
    void handle_operation(Ticks at, CollectiveOp op, std::optional<CommId> comm, Ticks begin) {
        if (current() == kNoCallPath || !comm || !is_member(*comm)) {
            ++unanalyzed_records;
            return;
        }
        ++mpi_records;
        ++unpaired_records;
        ThreadTransfer& t = transfer_of_call(ThreadTransfer::Kind::Collective, *comm);
        t.time = at;
        t.op = op;
        t.begin = begin;
    }
    void file_operation_cancelled(OTF2_IoHandleRef handle, std::uint64_t matching_id) {
        ++mpi_records;
        open_file_operations.erase({handle, matching_id});
    }
    bool is_member(CommId comm) {
        const CommLayout& layout = layout_of(comm);
        return layout.valid && (layout.self || layout.rank_of(trace.rank) >= 0);
    }
    const CommLayout& layout_of(CommId comm) {
        if (layouts.size() <= comm) layouts.resize(comm + 1);
        if (!layouts[comm]) layouts[comm] = comm_layout(defs.definitions, comm);
        return *layouts[comm];
    }
    // The world rank of the communicator's rank `partner` (on an
    // intercommunicator: of its other group); -1 when there is none.
    int peer_world_rank(CommId comm, std::uint32_t partner) {
        const CommLayout& layout = layout_of(comm);
        const int own = layout.rank_of(trace.rank);
        if (!layout.valid || own < 0) return -1;
        int peer = static_cast<int>(partner);
        if (layout.first_group_size > 0) peer = layout.peer_rank(peer, own);
        if (peer < 0 || peer >= layout.size()) return -1;
        return layout.world_rank_of(peer, trace.rank);
    }
};

WorkerSink& worker(void* ud) { return *static_cast<WorkerSink*>(ud); }

// A record the analysis needs nothing of beyond its call: a message's
// request (its MPI_IRECV_REQUEST, a test, ...: the message's own record is
// what pairing reads), a file handle's creation, seek or test.
template <typename... Rest>
OTF2_CallbackCode count_mpi_record(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*,
                                   Rest...) {
    ++worker(ud).mpi_records;
    return OTF2_CALLBACK_SUCCESS;
}

// A collective's record that moved nothing by itself (its begin, its request).
template <typename... Rest>
OTF2_CallbackCode count_collective(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*,
                                   Rest...) {
    ++worker(ud).mpi_records;
    ++worker(ud).unpaired_records;
    return OTF2_CALLBACK_SUCCESS;
}

// A record of a one-sided epoch (a synchronization, a completion): the
// analysis of worker threads does not read them (their calls' time it
// does), and says so.
OTF2_CallbackCode count_unanalyzed_rma(void* ud, const std::function<void(EventStoreBuilder&)>&) {
    ++worker(ud).unanalyzed_records;
    return OTF2_CALLBACK_SUCCESS;
}

otf2::EvtCallbacks worker_callbacks() {
    otf2::EvtCallbacks cb(OTF2_EvtReaderCallbacks_New());
    auto* c = cb.get();
    OTF2_EvtReaderCallbacks_SetEnterCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RegionRef r) {
            return worker(ud).guarded([&] { worker(ud).enter(t, r); });
        });
    OTF2_EvtReaderCallbacks_SetLeaveCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RegionRef r) {
            return worker(ud).guarded([&] { worker(ud).leave(t, r); });
        });
    OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_CommRef) {
            return worker(ud).guarded([&] { worker(ud).team_begin(t); });
        });
    OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_CommRef) {
            return worker(ud).guarded([&] { worker(ud).team_end(t); });
        });
    OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_Paradigm,
              std::uint32_t lock, std::uint32_t order) {
            return worker(ud).guarded([&] { worker(ud).push(t, ThreadEventKind::Acquire, lock, order); });
        });
    OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_Paradigm,
              std::uint32_t lock, std::uint32_t order) {
            return worker(ud).guarded([&] { worker(ud).push(t, ThreadEventKind::Release, lock, order); });
        });
    set_thread_task_callbacks<[](void* ud) { ++worker(ud).handled; }>(c);
    // MPI on a worker thread: a message's record where the master's store
    // files it (a non-blocking one's at its MPI_ISEND, or its MPI_IRECV
    // completion), with what pairing needs; a collective's end with what
    // it moved, for the thread's own statistics (collectives are not
    // paired, doc/analyzer.md).
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t to,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
            return worker(ud).guarded([&] { worker(ud).message(true, t, comm, to, tag, bytes); });
        });
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t to,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
            return worker(ud).guarded([&] { worker(ud).nonblocking_send(t, comm, to, tag, bytes, request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t from,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
            return worker(ud).guarded([&] { worker(ud).message(false, t, comm, from, tag, bytes); });
        });
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t from,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
            return worker(ud).guarded([&] { worker(ud).nonblocking_receive(t, comm, from, tag, bytes, request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_CollectiveOp op,
              OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent, std::uint64_t received) {
            return worker(ud).guarded([&] { worker(ud).collective(t, op, comm, root, sent, received); });
        });
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_CollectiveOp op,
              OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent, std::uint64_t received, std::uint64_t) {
            return worker(ud).guarded([&] { worker(ud).collective(t, op, comm, root, sent, received); });
        });
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint64_t request) {
            return worker(ud).guarded([&] { worker(ud).send_completed(t, request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint64_t request) {
            return worker(ud).guarded([&] { worker(ud).receive_posted(request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint64_t request) {
            return worker(ud).guarded([&] { worker(ud).request_tested(request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(c, &count_collective);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(c, &count_collective);
    // One-sided communication and MPI-IO: the transfers and the bytes of
    // file reads and writes, for the thread's counts, and the window
    // operations, collective operations of the window's communicator; the
    // rest of the one-sided records is counted as not analyzed.
    set_rma_callbacks<&count_unanalyzed_rma>(c);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp time, std::uint64_t, void* ud, OTF2_AttributeList*) {
            return worker(ud).guarded([&] { worker(ud).window_operation_started(time); });
        });
    OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp time, std::uint64_t, void* ud, OTF2_AttributeList*,
              OTF2_CollectiveOp op, OTF2_RmaSyncLevel, OTF2_RmaWinRef win, std::uint32_t, std::uint64_t,
              std::uint64_t) {
            return worker(ud).guarded([&] { worker(ud).window_operation_ended(time, op, win); });
        });
    OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RmaWinRef,
              std::uint32_t, std::uint64_t bytes, std::uint64_t) {
            return worker(ud).guarded([&] { worker(ud).rma_transfer(RmaTransferKind::Put, bytes, 0); });
        });
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RmaWinRef,
              std::uint32_t, std::uint64_t bytes, std::uint64_t) {
            return worker(ud).guarded([&] { worker(ud).rma_transfer(RmaTransferKind::Get, 0, bytes); });
        });
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RmaWinRef,
              std::uint32_t, OTF2_RmaAtomicType, std::uint64_t sent, std::uint64_t received, std::uint64_t) {
            return worker(ud).guarded([&] { worker(ud).rma_transfer(RmaTransferKind::Atomic, sent, received); });
        });
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp time, std::uint64_t, void* ud, OTF2_AttributeList*,
              OTF2_IoHandleRef io, OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags, std::uint64_t,
              std::uint64_t matching_id) {
            return worker(ud).guarded([&] { worker(ud).file_operation_begin(time, io, mode, flags, matching_id); });
        });
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp time, std::uint64_t, void* ud, OTF2_AttributeList*,
              OTF2_IoHandleRef io, std::uint64_t bytes, std::uint64_t matching_id) {
            return worker(ud).guarded([&] { worker(ud).file_operation_complete(time, io, bytes, matching_id); });
        });
    OTF2_EvtReaderCallbacks_SetIoOperationCancelledCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoHandleRef io,
              std::uint64_t matching_id) {
            return worker(ud).guarded([&] { worker(ud).file_operation_cancelled(io, matching_id); });
        });
    OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoDuplicateHandleCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoSeekCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoChangeStatusFlagsCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoDeleteFileCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoOperationTestCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoAcquireLockCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoReleaseLockCallback(c, &count_mpi_record);
    OTF2_EvtReaderCallbacks_SetIoTryLockCallback(c, &count_mpi_record);
    return cb;
}

}  // namespace

ThreadStreams load_thread_streams(const otf2::Reader& reader, const TraceDefinitions& defs, LocalTrace& trace,
                                  const MasterThreadRecords& master, std::span<const Location> workers,
                                  LocalDefinitionsReader read_local, LoadStats& stats,
                                  std::vector<RequestEnds>& request_ends) {
    ThreadStreams streams;
    std::vector<CallPathId> fork_paths;
    streams.threads.push_back(master_stream(trace, master, fork_paths));
    const auto event_file = [&](LocationId l) {
        return (std::filesystem::path(trace.anchor_path).replace_extension() / (std::to_string(l) + ".evt")).string();
    };
    std::uint32_t number = 0;
    std::vector<ClockCorrection> clocks;
    for (const Location& w : workers) clocks.push_back(read_local(reader, w.id, defs, trace.anchor_path));
    otf2::EvtFiles files(reader, "cannot open the event files of the threads");
    const auto callbacks = worker_callbacks();
    std::uint64_t skipped = 0;
    std::size_t with_unpaired = 0;
    std::uint64_t unanalyzed = 0;
    std::size_t with_unanalyzed = 0;
    for (std::size_t i = 0; i < workers.size(); ++i) {
        const Location& w = workers[i];
        ThreadStream& stream = streams.threads.emplace_back();
        stream.location = w.id;
        stream.name = w.name.empty() ? "thread " + std::to_string(i + 1) : w.name;
        stream.thread = ++number;
        stream.events.reserve(w.event_count);
        WorkerSink sink(defs, trace, clocks[i], fork_paths, stream, event_file(w.id));
        otf2::EvtReader events(reader, OTF2_Reader_GetEvtReader(reader.get(), w.id));
        if (!events) reader.check(OTF2_ERROR_INVALID, "cannot read the events of " + stream.name);
        reader.check(OTF2_EvtReader_ApplyClockOffsets(events.get(), false), "cannot set up event reading");
        reader.check(OTF2_Reader_RegisterEvtCallbacks(reader.get(), events.get(), callbacks.get(), &sink),
                     "cannot read the events of " + stream.name);
        std::uint64_t read = 0;
        const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(reader.get(), events.get(), &read);
        sink.rethrow_if_interrupted();
        reader.check(code, "cannot read the events of " + stream.name, event_file(w.id));
        if (!sink.open.empty()) throw Error(event_file(w.id), stream.name + " ends inside a region");
        if (read < w.event_count)
            throw Error(event_file(w.id), "the event stream of " + stream.name + " holds " + std::to_string(read) +
                                              " of its " + std::to_string(w.event_count) +
                                              " events (truncated trace?)");
        stats.timestamp_fixups += sink.fixups;
        request_ends.push_back(sink.take_request_ends());
        streams.unpaired_worker_records += sink.unpaired_records;
        with_unpaired += sink.unpaired_records > 0;
        unanalyzed += sink.unanalyzed_records;
        with_unanalyzed += sink.unanalyzed_records > 0;
        skipped += read - sink.handled - sink.mpi_records - sink.unanalyzed_records;
    }
    stats.other_skipped += skipped;
    if (unanalyzed > 0)
        stats.damage.push_back("rank " + std::to_string(trace.rank) + ": " + std::to_string(unanalyzed) +
                               " records of one-sided epochs (or of collective file or window operations "
                               "without a communicator) on " +
                               std::to_string(with_unanalyzed) +
                               " OpenMP worker thread(s) are not analyzed for wait states (their calls' time, "
                               "transfers and bytes are)");
    if (streams.unpaired_worker_records > 0)
        stats.damage.push_back("rank " + std::to_string(trace.rank) + ": " +
                               std::to_string(streams.unpaired_worker_records) + " MPI collective records on " +
                               std::to_string(with_unpaired) +
                               " OpenMP worker thread(s) are not replayed (the replay leaves their operations out on "
                               "every member; they are analyzed apart, their critical path only where a "
                               "master waited)");
    return streams;
}

}  // namespace hindsight::trace
