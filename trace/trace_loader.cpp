#include "trace/trace_loader.hpp"

#include <filesystem>
#include <optional>
#include <utility>
#include <system_error>

#include "trace/callback_guard.hpp"
#include "trace/definitions_reader.hpp"
#include "trace/mapping_check.hpp"
#include "trace/otf2_handles.hpp"
#include "trace/rma_events.hpp"
#include "trace/thread_stream_loader.hpp"

namespace hindsight::trace {
namespace {

// The user data of the event callbacks: the builder plus the counters of
// what the analysis skips.
struct EventSink : CallbackGuard {
    EventSink(EventStoreBuilder& b, std::optional<std::uint64_t> sources, MasterThreadRecords& t)
        : builder(b), threads(t), sources_attribute(sources) {}
    EventStoreBuilder& builder;
    MasterThreadRecords& threads;  // OpenMP fork, join, team and lock records
    std::optional<std::uint64_t> sources_attribute;  // TraceDefinitions::sources_attribute
    std::uint64_t handled = 0;  // records the store uses (or needs to see)
};

EventSink& sink(void* user_data) { return *static_cast<EventSink*>(user_data); }

// The group of the receive sources a collective's end event carries, if any
// (of another type than a group reference, the value is no source group).
std::optional<OTF2_GroupRef> receive_sources(const EventSink& s, const OTF2_AttributeList* attributes) {
    if (!s.sources_attribute || !attributes) return std::nullopt;
    OTF2_GroupRef group = OTF2_UNDEFINED_GROUP;
    if (OTF2_AttributeList_GetGroupRef(attributes, static_cast<OTF2_AttributeRef>(*s.sources_attribute), &group) !=
        OTF2_SUCCESS)
        return std::nullopt;
    return group;
}

// Runs `body` for a record the store uses.
template <typename Body>
OTF2_CallbackCode handle(void* user_data, Body&& body) {
    EventSink& s = sink(user_data);
    ++s.handled;
    return s.guarded(std::forward<Body>(body));
}

// A counter for skipped records of one kind, usable as any OTF2 event
// callback (the trailing parameters are deduced from the setter).
template <std::uint64_t LoadStats::*Counter, typename... Rest>
OTF2_CallbackCode count_skipped(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* user_data,
                                OTF2_AttributeList*, Rest...) {
    ++(sink(user_data).builder.stats.*Counter);
    return OTF2_CALLBACK_SUCCESS;
}

// One-sided communication's records (rma_events.hpp), run like any other.
OTF2_CallbackCode run_rma(void* user_data, const std::function<void(EventStoreBuilder&)>& body) {
    return handle(user_data, [&] { body(sink(user_data).builder); });
}

otf2::EvtCallbacks make_event_callbacks() {
    otf2::EvtCallbacks cb(OTF2_EvtReaderCallbacks_New());
    auto* c = cb.get();
    OTF2_EvtReaderCallbacks_SetEnterCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RegionRef r) {
            return handle(ud, [&] { sink(ud).builder.enter(t, r); });
        });
    OTF2_EvtReaderCallbacks_SetLeaveCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_RegionRef r) {
            return handle(ud, [&] { sink(ud).builder.leave(t, r); });
        });
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t peer,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
            return handle(ud, [&] { sink(ud).builder.send(t, peer, comm, tag, bytes); });
        });
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t peer,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
            return handle(ud, [&] { sink(ud).builder.isend(t, peer, comm, tag, bytes, request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t peer,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes) {
            return handle(ud, [&] { sink(ud).builder.recv(t, peer, comm, tag, bytes); });
        });
    // An MPI_Irecv's request is posted in the MPI_Irecv (or MPI_Start) call;
    // its completion, with the envelope, sits in the MPI_Wait/MPI_Test call
    // that completed it.
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              std::uint64_t request) { return handle(ud, [&] { sink(ud).builder.irecv_request(t, request); }); });
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::uint32_t peer,
              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes, std::uint64_t request) {
            return handle(ud, [&] { sink(ud).builder.irecv(t, peer, comm, tag, bytes, request); });
        });
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              std::uint64_t request) { return handle(ud, [&] { sink(ud).builder.request_cancelled(t, request); }); });
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList* attributes,
              OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent, std::uint64_t received) {
            return handle(ud, [&] {
                sink(ud).builder.collective_end(t, op, comm, root, sent, received,
                                                receive_sources(sink(ud), attributes));
            });
        });
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              std::uint64_t request) {
            return handle(ud, [&] { sink(ud).builder.nonblocking_collective_request(t, request); });
        });
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList* attributes,
              OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent,
              std::uint64_t received, std::uint64_t request) {
            return handle(ud, [&] {
                sink(ud).builder.nonblocking_collective_complete(t, op, comm, root, sent, received, request,
                                                                 receive_sources(sink(ud), attributes));
            });
        });
    OTF2_EvtReaderCallbacks_SetProgramBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_StringRef name,
              std::uint32_t count, const OTF2_StringRef* arguments) {
            return handle(ud, [&] {
                sink(ud).builder.program_begin(t, name, {arguments, arguments ? std::size_t{count} : 0});
            });
        });
    OTF2_EvtReaderCallbacks_SetProgramEndCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, std::int64_t) {
            return handle(ud, [&] { sink(ud).builder.program_end(t); });
        });
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              std::uint64_t request) { return handle(ud, [&] { sink(ud).builder.isend_complete(t, request); }); });
    // An unsuccessful test of a request: a polling loop for its receive.
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              std::uint64_t request) { return handle(ud, [&] { sink(ud).builder.request_test(t, request); }); });
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*) {
            return handle(ud, [&] { sink(ud).builder.collective_begin(t); });
        });
    // I/O operations: their bytes, and the synchronization of collective ones.
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              OTF2_IoHandleRef io, OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags, std::uint64_t,
              std::uint64_t matching_id) {
            return handle(ud, [&] { sink(ud).builder.io_operation_begin(t, io, mode, flags, matching_id); });
        });
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              OTF2_IoHandleRef io, std::uint64_t bytes, std::uint64_t matching_id) {
            return handle(ud, [&] { sink(ud).builder.io_operation_complete(t, io, bytes, matching_id); });
        });
    OTF2_EvtReaderCallbacks_SetIoOperationCancelledCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*,
              OTF2_IoHandleRef io, std::uint64_t matching_id) {
            return handle(ud, [&] { sink(ud).builder.io_operation_cancelled(t, io, matching_id); });
        });
    // The other I/O records say nothing the analysis uses, but belong to
    // the I/O it analyzes: seen, not counted as skipped.
    OTF2_EvtReaderCallbacks_SetIoCreateHandleCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoHandleRef,
              OTF2_IoAccessMode, OTF2_IoCreationFlag, OTF2_IoStatusFlag) {
            return handle(ud, [&] { sink(ud).builder.io_record(t, "IO_CREATE_HANDLE"); });
        });
    OTF2_EvtReaderCallbacks_SetIoDestroyHandleCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoHandleRef) {
            return handle(ud, [&] { sink(ud).builder.io_record(t, "IO_DESTROY_HANDLE"); });
        });
    OTF2_EvtReaderCallbacks_SetIoDeleteFileCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoParadigmRef,
              OTF2_IoFileRef) { return handle(ud, [&] { sink(ud).builder.io_record(t, "IO_DELETE_FILE"); }); });
    OTF2_EvtReaderCallbacks_SetIoSeekCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoHandleRef,
              std::int64_t, OTF2_IoSeekOption, std::uint64_t) {
            return handle(ud, [&] { sink(ud).builder.io_record(t, "IO_SEEK"); });
        });
    OTF2_EvtReaderCallbacks_SetIoOperationIssuedCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoHandleRef,
              std::uint64_t) { return handle(ud, [&] { sink(ud).builder.io_record(t, "IO_OPERATION_ISSUED"); }); });
    OTF2_EvtReaderCallbacks_SetIoOperationTestCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_IoHandleRef,
              std::uint64_t) { return handle(ud, [&] { sink(ud).builder.io_record(t, "IO_OPERATION_TEST"); }); });
    set_rma_callbacks<&run_rma>(c);
    // Counted by kind for the warning about what the analysis ignores; all
    // other unused records are counted together from the total.
    OTF2_EvtReaderCallbacks_SetMetricCallback(c, &count_skipped<&LoadStats::metric_records>);
    OTF2_EvtReaderCallbacks_SetParameterStringCallback(c, &count_skipped<&LoadStats::parameter_records>);
    OTF2_EvtReaderCallbacks_SetParameterIntCallback(c, &count_skipped<&LoadStats::parameter_records>);
    OTF2_EvtReaderCallbacks_SetParameterUnsignedIntCallback(c, &count_skipped<&LoadStats::parameter_records>);
    set_master_thread_callbacks<[](void* ud) -> MasterThreadRecords& { return sink(ud).threads; },
                                [](void* ud) -> CallbackGuard& { return sink(ud); }>(c);
    return cb;
}

// OTF2 takes a missing or empty local definition file for "no local
// definitions", and then for "the events use global ids already": with a
// file lost or truncated to nothing, the rank's regions and communicators
// would silently become others. Every writer we know writes one such file
// per location (holding at least its clock offsets) or none at all, so a
// location's file is required whenever another location's exists. Neither
// it nor the event file may be a FIFO, at which OTF2 would block.
// Returns the location's .def file.
std::string check_location_files(const std::string& anchor_path, OTF2_LocationRef location,
                                 OTF2_LocationRef other_location) {
    namespace fs = std::filesystem;
    const fs::path files = fs::path(anchor_path).replace_extension();
    const auto file_of = [&](OTF2_LocationRef l) { return files / (std::to_string(l) + ".def"); };
    const fs::path mine = file_of(location);
    otf2::require_regular_if_present(mine);
    otf2::require_regular_if_present(files / (std::to_string(location) + ".evt"));
    std::error_code ec;
    const auto size = fs::file_size(mine, ec);
    if (!ec && size == 0) throw Error(mine.string(), "the local definition file is empty");
    if (ec && location != other_location && fs::exists(file_of(other_location), ec))
        throw Error(mine.string(), "the local definition file is missing (other locations have theirs)");
    return mine.string();
}

// The clock offsets of the location, with its mapping tables checked
// (mapping_check.hpp). `file` is the location's .def file, for messages.
ClockCorrection read_local_definitions(const otf2::Reader& reader, OTF2_LocationRef location,
                                       const TraceDefinitions& global, const std::string& file) {
    const ClockProperties& properties = global.definitions.clock;
    ClockCorrection clock(properties.global_offset, ClockCorrection::window_of(properties));
    // Reading the local definitions also hands OTF2 the location's mapping
    // tables, which it then applies to the events' references.
    otf2::DefFiles files(reader, "cannot open the local definition files");
    otf2::DefReader defs(reader, OTF2_Reader_GetDefReader(reader.get(), location));
    if (!defs) return clock;  // no local definitions: ids are global already
    otf2::DefCallbacks cb(OTF2_DefReaderCallbacks_New());
    struct Offsets {
        ClockCorrection& clock;
        const TraceDefinitions& global;
        std::optional<std::pair<OTF2_TimeStamp, std::int64_t>> refused;
        std::optional<std::string> mapping_problem;
    } offsets{clock, global, std::nullopt, std::nullopt};
    OTF2_DefReaderCallbacks_SetMappingTableCallback(
        cb.get(), [](void* ud, OTF2_MappingType type, const OTF2_IdMap* map) {
            auto& o = *static_cast<Offsets*>(ud);
            o.mapping_problem = mapping_table_problem(o.global, type, map);
            return o.mapping_problem ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
        });
    // Checked against the trace's own span (clock_correction.hpp): a damaged
    // offset would shift every time of the location.
    OTF2_DefReaderCallbacks_SetClockOffsetCallback(
        cb.get(), [](void* ud, OTF2_TimeStamp time, std::int64_t offset, double) {
            auto& o = *static_cast<Offsets*>(ud);
            if (o.clock.add_offset(time, offset)) return OTF2_CALLBACK_SUCCESS;
            o.refused.emplace(time, offset);
            return OTF2_CALLBACK_INTERRUPT;
        });
    reader.check(OTF2_Reader_RegisterDefCallbacks(reader.get(), defs.get(), cb.get(), &offsets),
                 "cannot read the local definitions");
    std::uint64_t count = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalDefinitions(reader.get(), defs.get(), &count);
    if (offsets.mapping_problem) throw Error(file, *offsets.mapping_problem);
    if (offsets.refused)
        throw Error(file, "a clock offset of location " + std::to_string(location) + " (" +
                                       std::to_string(offsets.refused->second) + " ticks at local time " +
                                       std::to_string(offsets.refused->first) + ") " +
                                       outside_time_span(properties, clock.window(),
                                                         clock.instant(offsets.refused->first,
                                                                       offsets.refused->second)));
    reader.check(code, "cannot read the local definitions of location " + std::to_string(location), file);
    return clock;
}

}  // namespace

LoadedTrace load_local_trace(const std::string& anchor_path, int rank, int ranks) {
    otf2::Reader reader(anchor_path);
    TraceDefinitions defs = read_global_definitions(reader);
    const int traced = defs.definitions.mpi_rank_count();
    if (traced != ranks)
        throw Error(anchor_path, "the trace has " + std::to_string(traced) + " MPI ranks but the analysis runs on " +
                                     std::to_string(ranks) + "; start it with " + std::to_string(traced) +
                                     " ranks (mpirun -n " + std::to_string(traced) + ")");

    LoadedTrace result;
    LocalTrace& trace = result.trace;
    trace.rank = rank;
    trace.anchor_path = anchor_path;
    const auto location = defs.definitions.location_of_rank(rank);
    if (!location) throw Error(anchor_path, "the trace has no MPI rank " + std::to_string(rank));

    reader.check(OTF2_Reader_SelectLocation(reader.get(), *location), "cannot select the location of rank " +
                                                                          std::to_string(rank));
    // The rank's OpenMP worker threads (thread_streams.hpp), read after it.
    const std::vector<Location> workers = worker_locations(defs.definitions, *location);
    for (const Location& w : workers)
        reader.check(OTF2_Reader_SelectLocation(reader.get(), w.id), "cannot select location " + std::to_string(w.id));
    const auto neighbour = defs.definitions.location_of_rank(rank == 0 ? ranks - 1 : 0);
    const std::string local_file = check_location_files(anchor_path, *location, neighbour.value_or(*location));
    const ClockCorrection clock = read_local_definitions(reader, *location, defs, local_file);

    std::uint64_t expected = 0;
    for (const Location& l : defs.definitions.locations)
        if (l.id == *location) expected = l.event_count;
    if (expected > kMaxEvents)
        throw Error(anchor_path, "rank " + std::to_string(rank) + " has " + std::to_string(expected) +
                                     " events, more than the " + std::to_string(kMaxEvents) +
                                     " the analyzer can hold per rank");
    // Every record but the skipped ones becomes at most one event, plus the
    // synthetic ones (program region, MPI_Init/_Finalize): reserve once.
    trace.events.reserve(expected + 4);
    trace.definitions = defs.definitions;
    EventStoreBuilder builder(defs, clock, trace);
    // A message takes at least three records (its call's ENTER and LEAVE
    // besides its own), so this reservation is rarely outgrown; the part
    // left unused is never touched and so costs no memory.
    builder.reserve_messages(expected / 3 + 16);
    MasterThreadRecords thread_records(clock, trace, local_file);
    EventSink sink(builder, defs.sources_attribute, thread_records);
    {
        otf2::EvtFiles files(reader, "cannot open the event files");
        otf2::EvtReader events(reader, OTF2_Reader_GetEvtReader(reader.get(), *location));
        if (!events) reader.check(OTF2_ERROR_INVALID, "cannot read the events of rank " + std::to_string(rank));
        // Hindsight applies the clock offsets itself (clock_correction.hpp).
        reader.check(OTF2_EvtReader_ApplyClockOffsets(events.get(), false), "cannot set up event reading");
        const auto callbacks = make_event_callbacks();
        reader.check(OTF2_Reader_RegisterEvtCallbacks(reader.get(), events.get(), callbacks.get(), &sink),
                     "cannot read the events of rank " + std::to_string(rank));
        std::uint64_t read = 0;
        const OTF2_ErrorCode code = OTF2_Reader_ReadAllLocalEvents(reader.get(), events.get(), &read);
        sink.rethrow_if_interrupted();
        reader.check(code, "cannot read the events of rank " + std::to_string(rank),
                     (std::filesystem::path(anchor_path).replace_extension() / (std::to_string(*location) + ".evt"))
                         .string());
        builder.stats.records = read;
    }
    // Even a rank that only called MPI_Init and MPI_Finalize has events.
    if (builder.stats.records == 0)
        throw Error(anchor_path, "rank " + std::to_string(rank) + " has no events");
    if (builder.stats.records < expected)
        throw Error(anchor_path, "the event stream of rank " + std::to_string(rank) + " holds " +
                                     std::to_string(builder.stats.records) + " of its " + std::to_string(expected) +
                                     " events (truncated trace?)");
    result.slots = builder.finish();

    LoadStats& stats = builder.stats;
    stats.other_skipped =
        stats.records - sink.handled - thread_records.seen() - stats.metric_records - stats.parameter_records;
    std::vector<RequestEnds> request_ends;
    request_ends.push_back(builder.take_request_ends());
    if (!workers.empty())
        trace.threads = load_thread_streams(
            reader, defs, trace, thread_records, workers,
            [](const otf2::Reader& r, OTF2_LocationRef l, const TraceDefinitions& d, const std::string& anchor) {
                return read_local_definitions(r, l, d, check_location_files(anchor, l, l));
            },
            stats, request_ends);
    for (std::string& note : settle_request_ends(trace, request_ends)) stats.damage.push_back(std::move(note));
    result.stats = stats;
    // The collective table grew by doubling and gives back its slack (the
    // message table's unused reservation costs nothing, and copying it
    // would).
    trace.collectives.shrink_to_fit();
    return result;
}

}  // namespace hindsight::trace
