// Loading the OpenMP threads of one analysis rank (thread_streams.hpp): the
// master's thread records while its events are read (a set of OTF2
// callbacks the main loader adds), then the worker threads' own streams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "trace/callback_guard.hpp"
#include "trace/clock_correction.hpp"
#include "trace/definitions_reader.hpp"
#include "trace/event_store_builder.hpp"
#include "trace/local_trace.hpp"
#include "trace/otf2_handles.hpp"
#include "trace/request_ends.hpp"
#include "trace/thread_streams.hpp"

namespace hindsight::trace {

// The master's fork, join, team and lock records, each with its place among
// the master's stored events (the number stored before it), since they are
// not events of the store themselves.
class MasterThreadRecords {
public:
    MasterThreadRecords(const ClockCorrection& clock, const LocalTrace& trace, std::string file)
        : clock_(clock), trace_(trace), file_(std::move(file)) {}
    void add(std::uint64_t time, ThreadEventKind kind, std::uint32_t value = 0, std::uint32_t order = 0);
    // Score-P's records of an explicit task (created, switched to,
    // completed) beside its region: the region is what the analysis reads
    // (a task runs nested in the one it suspended), so these add nothing.
    void task_record() { ++task_records_; }
    // How many records were seen (all of them used: none counts as skipped).
    std::uint64_t seen() const { return records_.size() + task_records_; }

    struct Record {
        ThreadEvent event;
        std::size_t position = 0;  // events stored before it
    };
    const std::vector<Record>& records() const { return records_; }

private:
    const ClockCorrection& clock_;
    const LocalTrace& trace_;
    std::string file_;
    std::vector<Record> records_;
    std::uint64_t task_records_ = 0;
};

// Score-P's THREAD_TASK_CREATE, _SWITCH and _COMPLETE, which carry the same
// fields, as callbacks that run `Note(user_data)`.
template <auto Note>
OTF2_CallbackCode thread_task_record(OTF2_LocationRef, OTF2_TimeStamp, std::uint64_t, void* ud, OTF2_AttributeList*,
                                     OTF2_CommRef, std::uint32_t, std::uint32_t) {
    Note(ud);
    return OTF2_CALLBACK_SUCCESS;
}
template <auto Note>
void set_thread_task_callbacks(OTF2_EvtReaderCallbacks* c) {
    OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(c, &thread_task_record<Note>);
    OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(c, &thread_task_record<Note>);
    OTF2_EvtReaderCallbacks_SetThreadTaskCompleteCallback(c, &thread_task_record<Note>);
}

// Adds the callbacks of the master's thread records to `c`. `Access` maps
// the callbacks' user data to the records (a captureless lambda); the user
// data must be a CallbackGuard as well, which `Guard` maps it to.
template <auto Access, auto Guard>
void set_master_thread_callbacks(OTF2_EvtReaderCallbacks* c) {
    OTF2_EvtReaderCallbacks_SetThreadForkCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_Paradigm,
              std::uint32_t threads) {
            return Guard(ud).guarded([&] { Access(ud).add(t, ThreadEventKind::Fork, threads); });
        });
    OTF2_EvtReaderCallbacks_SetThreadJoinCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_Paradigm) {
            return Guard(ud).guarded([&] { Access(ud).add(t, ThreadEventKind::Join); });
        });
    OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_CommRef) {
            return Guard(ud).guarded([&] { Access(ud).add(t, ThreadEventKind::TeamBegin); });
        });
    OTF2_EvtReaderCallbacks_SetThreadTeamEndCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_CommRef) {
            return Guard(ud).guarded([&] { Access(ud).add(t, ThreadEventKind::TeamEnd); });
        });
    OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_Paradigm,
              std::uint32_t lock, std::uint32_t order) {
            return Guard(ud).guarded([&] { Access(ud).add(t, ThreadEventKind::Acquire, lock, order); });
        });
    OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(
        c, [](OTF2_LocationRef, OTF2_TimeStamp t, std::uint64_t, void* ud, OTF2_AttributeList*, OTF2_Paradigm,
              std::uint32_t lock, std::uint32_t order) {
            return Guard(ud).guarded([&] { Access(ud).add(t, ThreadEventKind::Release, lock, order); });
        });
    set_thread_task_callbacks<[](void* ud) { Access(ud).task_record(); }>(c);
}

// The worker threads of the rank whose MPI location is `master`: the other
// locations of its location group, in the order the trace defines them,
// without Score-P's "VOID" placeholder.
std::vector<Location> worker_locations(const Definitions& definitions, LocationId master);

// Reads the time correction (and mapping tables) of a location; see
// trace_loader.cpp.
using LocalDefinitionsReader = ClockCorrection (*)(const otf2::Reader&, OTF2_LocationRef, const TraceDefinitions&,
                                                   const std::string& anchor_path);

// The rank's thread streams: the master's (its stored visits merged with
// its thread records) and each worker's, read here from `reader`, where the
// workers are selected already. Worker call paths hang below the master's
// call path at the matching fork, in trace.call_tree. The workers' sends,
// receives and collectives are kept (ThreadStream::transfers), the messages
// for pairing; their collective records are counted
// (ThreadStreams::unpaired_worker_records), and stats gets a damage line
// for them, since the replay does not pair them. Each worker's loose
// request ends go to the end of `request_ends` (request_ends.hpp).
ThreadStreams load_thread_streams(const otf2::Reader& reader, const TraceDefinitions& defs, LocalTrace& trace,
                                  const MasterThreadRecords& master, std::span<const Location> workers,
                                  LocalDefinitionsReader read_local, LoadStats& stats,
                                  std::vector<RequestEnds>& request_ends);

}  // namespace hindsight::trace
