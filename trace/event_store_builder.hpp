// Builds one rank's event store from its OTF2 records, in stream order:
// call paths from the ENTER/LEAVE nesting (in a rank-local call tree),
// Enter<->Leave links, messages and collectives in their side tables, and
// the implicit synchronizations of MPI_Init and MPI_Finalize.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <otf2/otf2.h>

#include "trace/clock_correction.hpp"
#include "trace/comm_layout.hpp"
#include "trace/definitions_reader.hpp"
#include "trace/local_trace.hpp"
#include "trace/message_slots.hpp"
#include "trace/damage_tally.hpp"
#include "trace/request_ends.hpp"
#include "trace/rma_records.hpp"
#include "trace/source_lists.hpp"

namespace hindsight::trace {

// What loading saw besides the events it keeps.
struct LoadStats {
    std::uint64_t records = 0;           // OTF2 event records read
    std::uint64_t metric_records = 0;    // METRIC (hardware counters), skipped
    std::uint64_t parameter_records = 0; // PARAMETER_*, skipped
    std::uint64_t other_skipped = 0;     // any other record the analysis does not use
    std::uint64_t timestamp_fixups = 0;  // timestamps raised to keep the stream monotonic (jitter)
    // What the stream showed damaged and how the analysis treats it, one
    // sentence each, naming the rank: the summary's warnings.
    std::vector<std::string> damage;
    Ticks first_time = 0;                // first and last corrected timestamp
    Ticks last_time = 0;
};

class EventStoreBuilder {
public:
    // `trace` receives the events; its definitions must be set already.
    EventStoreBuilder(const TraceDefinitions& defs, ClockCorrection clock, LocalTrace& trace);

    void enter(std::uint64_t time, OTF2_RegionRef region);
    void leave(std::uint64_t time, OTF2_RegionRef region);
    void send(std::uint64_t time, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
              std::uint64_t bytes);
    // MPI_ISEND: the message, and its request for the MPI_ISEND_COMPLETE
    // that will complete it.
    void isend(std::uint64_t time, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
               std::uint64_t bytes, std::uint64_t request);
    void isend_complete(std::uint64_t time, std::uint64_t request);
    void recv(std::uint64_t time, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
              std::uint64_t bytes);
    // A non-blocking receive: posted by MPI_IRECV_REQUEST in one call
    // (MPI_Irecv, MPI_Start), completed by MPI_IRECV, with its envelope, in
    // another (MPI_Wait, MPI_Test, ...); a cancelled request never completes.
    void irecv_request(std::uint64_t time, std::uint64_t request);
    void irecv(std::uint64_t time, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
               std::uint64_t bytes, std::uint64_t request);
    void request_cancelled(std::uint64_t time, std::uint64_t request);
    // MPI_REQUEST_TEST: an unsuccessful test of `request` (MPI_Test* in a
    // polling loop); the first one of a receive request begins its polling.
    void request_test(std::uint64_t time, std::uint64_t request);
    // `sources`: the group of the members it received data from, where the
    // event names one (common/receive_sources.hpp).
    void collective_end(std::uint64_t time, OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root,
                        std::uint64_t sent, std::uint64_t received, std::optional<OTF2_GroupRef> sources = {});
    // A non-blocking collective: started by NON_BLOCKING_COLLECTIVE_REQUEST
    // in one call (MPI_Iallreduce, ...), completed, with what it was, in
    // another (MPI_Wait, MPI_Test, ...), where its event is.
    void nonblocking_collective_request(std::uint64_t time, std::uint64_t request);
    void nonblocking_collective_complete(std::uint64_t time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                         std::uint32_t root, std::uint64_t sent, std::uint64_t received,
                                         std::uint64_t request, std::optional<OTF2_GroupRef> sources = {});
    void program_begin(std::uint64_t time, OTF2_StringRef program_name, std::span<const OTF2_StringRef> arguments);
    void program_end(std::uint64_t time);
    // MPI_COLLECTIVE_BEGIN: kept for the collective that ends next.
    void collective_begin(std::uint64_t time);
    // OTF2's I/O operations, paired by handle and matching id: begun by
    // IO_OPERATION_BEGIN (in the reading or writing call, or the one that
    // starts a non-blocking or split operation), completed, with the bytes
    // done, by IO_OPERATION_COMPLETE (in the same call, or in MPI_Wait & co.
    // or the split operation's _end call). A completed read or write adds a
    // FileTransfer; a collective one on a handle with a communicator adds a
    // collective operation (CollectiveOp::FileIo) at its completion.
    void io_operation_begin(std::uint64_t time, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                            OTF2_IoOperationFlag flags, std::uint64_t matching_id);
    void io_operation_complete(std::uint64_t time, OTF2_IoHandleRef handle, std::uint64_t bytes,
                               std::uint64_t matching_id);
    void io_operation_cancelled(std::uint64_t time, OTF2_IoHandleRef handle, std::uint64_t matching_id);
    // Any other I/O record the store looks at only for its timestamp (the
    // handles' creation and destruction, seeks, issued operations, ...).
    void io_record(std::uint64_t time, const char* record);

    // One-sided communication (trace/rma_events.cpp, which says how Score-P
    // records it): the collective window operations become collective
    // operations on the window's communicator, the rest RmaRecords.
    void rma_collective_begin(std::uint64_t time);
    void rma_collective_end(std::uint64_t time, OTF2_CollectiveOp op, OTF2_RmaWinRef win);
    void rma_group_sync(std::uint64_t time, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, OTF2_GroupRef group);
    void rma_lock(std::uint64_t time, RmaLockAction action, OTF2_RmaWinRef win, std::uint32_t remote,
                  std::uint64_t lock_id, bool exclusive);
    void rma_transfer(std::uint64_t time, RmaTransferKind kind, OTF2_RmaWinRef win, std::uint32_t remote,
                      std::uint64_t sent, std::uint64_t received, std::uint64_t matching_id);
    // `at_target`: the record completes the transfer at its target too
    // (BLOCKING, REMOTE); else at the origin only (NON_BLOCKING).
    void rma_op_complete(std::uint64_t time, OTF2_RmaWinRef win, std::uint64_t matching_id, const char* record,
                         bool at_target);
    // Any other RMA record, seen for its timestamp (window creation and
    // destruction, RMA_SYNC, RMA_WAIT_CHANGE, RMA_OP_TEST).
    void rma_record(std::uint64_t time, const char* record);

    // Room for `messages` messages in the message table and its slots.
    void reserve_messages(std::size_t messages);
    // Checks that the stream ended cleanly and hands over the numbering of
    // its messages; the stats (with their damage notes) are final afterwards,
    // but for the requests' loose ends, which the rank's locations settle
    // together.
    MessageSlots finish();
    // After finish(): the location's loose request ends (request_ends.hpp).
    RequestEnds take_request_ends();

    LoadStats stats;

private:
    // MPI calls the store treats apart: MPI_Init and MPI_Finalize, which
    // synchronize all ranks, the blocking probes (MPI_Probe, MPI_Mprobe),
    // which wait for the message the next receive takes, and the
    // non-blocking ones (MPI_Iprobe, MPI_Improbe), which poll for it, and
    // the calls that take a probed message: receiving it, or posting its
    // receive (MPI_Irecv, MPI_Imrecv).
    enum class SpecialCall : std::uint8_t { None, Init, Finalize, BlockingProbe, PollingProbe, Receive, PostReceive };

    // Every record passes the checks below; their failures are kept out of
    // line, so that the common path is a few compares.
    [[noreturn]] void fail(const std::string& problem) const;
    [[noreturn]] void fail_timestamp(std::uint64_t time, const char* record, std::optional<Ticks> corrected) const;
    [[noreturn]] void fail_step_back(std::uint64_t time, const char* record, Ticks corrected) const;
    [[noreturn]] void fail_event_count() const;
    [[noreturn]] void fail_region(OTF2_RegionRef region) const;
    [[noreturn]] void fail_comm(OTF2_CommRef comm, std::optional<std::uint32_t> index) const;
    // `record` names the OTF2 record for messages ("ENTER").
    Ticks corrected(std::uint64_t time, const char* record);
    // "'MPI_Wait' at 0.25 s": where a record of the innermost open call lies.
    std::string where(Ticks time) const;
    // A collective begin that its call left without an end.
    void drop_collective_begin();
    RegionId region_index(OTF2_RegionRef region) const;
    CommId comm_index(OTF2_CommRef comm) const;
    const CommLayout& layout(CommId comm) const { return layouts_[comm]; }
    EventIndex open_call() const { return open_.empty() ? kNoEvent : open_.back().enter; }
    CallPathId current_path() const { return open_.empty() ? kNoCallPath : open_.back().path; }
    void push_enter(Ticks time, RegionId region);
    void push_leave(Ticks time);
    EventIndex append(const Event& event);
    EventIndex push(Ticks time, EventKind kind, std::uint32_t ref);
    // For a receive completing a request: `first_test`, the Enter of the
    // first unsuccessful test of it, and `probe`, the blocking probe its
    // posting call took (kNoEvent: none).
    void push_message(Ticks time, EventKind kind, std::uint32_t partner, OTF2_CommRef comm,
                      std::uint32_t tag, std::uint64_t bytes, bool nonblocking,
                      EventIndex first_test = kNoEvent, EventIndex probe = kNoEvent);
    // A receive just pushed: files the blocking probe, or the first polling
    // call, that waited for its message.
    void note_waiting_calls(EventIndex first_test, EventIndex probe);
    // A collective as the trace records it, checked against its communicator.
    Collective collective(OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent,
                          std::uint64_t received) const;
    void push_collective(Ticks time, const Collective& collective);
    // Collective::sources of an operation on `comm` from the group its end
    // event names: kNoSources for none, or one that is no list of members.
    std::uint32_t sources_of(CommId comm, std::optional<OTF2_GroupRef> group);

    const TraceDefinitions& defs_;
    ClockCorrection clock_;
    LocalTrace& trace_;
    std::vector<CommLayout> layouts_;
    std::vector<bool> member_of_;  // by communicator: whether this rank belongs to it
    std::vector<SpecialCall> special_;  // by region
    CommId world_;
    // The open regions, innermost last: their Enter events, regions and
    // call paths (what every Leave checks and every event is filed under).
    struct OpenRegion {
        EventIndex enter = kNoEvent;
        RegionId region = kNoId;
        CallPathId path = kNoCallPath;
    };
    std::vector<OpenRegion> open_;
    MessageSlotsBuilder slots_;
    SourceListTable source_lists_;
    // The call tree finds a child path with a hash lookup; a trace repeats a
    // few (parent, region) pairs millions of times, so a small direct-mapped
    // cache in front of it answers nearly every Enter.
    struct ChildPath {
        CallPathId parent = kNoCallPath;
        RegionId region = kNoId;  // no region: an empty entry
        CallPathId child = kNoCallPath;
    };
    std::array<ChildPath, 64> child_paths_{};
    Ticks last_time_ = 0;      // of the previous record, once there is one
    bool any_time_ = false;
    Ticks jitter_tolerance_;   // see ClockCorrection::jitter_tolerance
    EventIndex last_collective_call_ = kNoEvent;
    Ticks collective_begin_ = Collective::kNoBegin;
    // Whether a begin waits for its end (collective_begin_ may be any time),
    // and the call holding it.
    bool collective_begun_ = false;
    EventIndex collective_begin_call_ = kNoEvent;
    // Receive requests posted and not yet completed: the Enter of the call
    // that posted each (request ids are unique among a rank's open requests)
    // and of the first unsuccessful test of it since polls were last taken.
    struct PostedRequest {
        EventIndex posted = kNoEvent;
        EventIndex first_test = kNoEvent;
        EventIndex probe = kNoEvent;  // the blocking probe whose message it takes
    };
    std::unordered_map<std::uint64_t, PostedRequest> posted_requests_;
    bool any_receive_posted_ = false;  // the writer records MPI_IRECV_REQUEST
    // Send requests started (MPI_ISEND) and not yet completed.
    std::unordered_set<std::uint64_t> open_send_requests_;
    // The Enter of the last blocking probe, until the next receive call
    // takes its message (or none: a probe of MPI_PROC_NULL).
    EventIndex unclaimed_probe_ = kNoEvent;
    // The Enter of the first non-blocking probe since the last receive.
    EventIndex first_polling_probe_ = kNoEvent;
    // The Enter of the last call whose receive took the polling calls
    // before it: each polling call belongs to one completing call only.
    EventIndex polls_taken_by_ = kNoEvent;
    // Non-blocking collectives started and not yet completed: when, and the
    // Enter of the starting call.
    struct Started {
        Ticks time = 0;
        EventIndex call = kNoEvent;
    };
    std::unordered_map<std::uint64_t, Started> started_collectives_;
    // I/O operations begun and not yet completed, by handle and matching id.
    struct OpenIoOperation {
        Ticks begin = 0;
        EventIndex call = kNoEvent;  // Enter of the call that began it
        OTF2_IoOperationMode mode = OTF2_IO_OPERATION_MODE_READ;
        OTF2_IoOperationFlag flags = OTF2_IO_OPERATION_FLAG_NONE;
    };
    std::map<std::pair<std::uint64_t, std::uint64_t>, OpenIoOperation> open_io_operations_;
    // The communicator whose members all take part in a collective
    // operation on `handle`, if the trace names one this rank belongs to.
    std::optional<CommId> io_handle_comm(OTF2_IoHandleRef handle) const;
    // Damage that the analysis can go around; finish() turns it into
    // stats.damage.
    // Completions of requests this location did not start, settled with
    // the rank's other locations (request_ends.hpp).
    RequestEnds request_ends_;
    DamageTally unended_collectives_;   // MPI_COLLECTIVE_BEGIN without its end
    DamageTally unstarted_collectives_; // NON_BLOCKING_COLLECTIVE_COMPLETE of a request never started
    DamageTally unbegun_io_;            // IO_OPERATION_COMPLETE of an operation never begun
    DamageTally uncompleted_io_;        // IO_OPERATION_BEGIN never completed
    DamageTally commless_collective_io_; // collective I/O on a handle without a communicator of this rank
    DamageTally outside_io_;            // IO_OPERATION_COMPLETE outside any region
    // One-sided communication being read (trace/rma_events.cpp).
    struct RmaLoading {
        Ticks collective_begin = Collective::kNoBegin;
        EventIndex collective_begin_call = kNoEvent;
        // Transfers issued and not yet completed, by window and matching id:
        // their index in RmaRecords::transfers.
        std::map<std::pair<std::uint64_t, std::uint64_t>, std::size_t> open_transfers;
        DamageTally windowless;     // records of windows the trace does not define for this rank
        DamageTally unissued;       // completions of transfers never issued
        DamageTally outside;        // records outside any region
    };
    RmaLoading rma_;
    // The communicator of window `win`, if the trace defines one this rank
    // belongs to; else the record is tallied as windowless.
    std::optional<CommId> rma_window_comm(OTF2_RmaWinRef win, Ticks time);
    // The damage notes of one-sided communication, for finish().
    void note_rma_damage();
    std::optional<RegionId> program_region_;  // open between PROGRAM_BEGIN and _END
    bool program_open_ = false;
};

// Numbers each collective operation among those its rank started on the
// same communicator (Collective::started_as); the table is in event order.
void number_starts(std::vector<Collective>& collectives);

}  // namespace hindsight::trace
