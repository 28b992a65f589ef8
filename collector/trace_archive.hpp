// This process's view of the OTF2 archive: its event writer with a bounded
// buffer, its local definitions, and (rank 0) the global definitions.
// Opening and closing are collective over MPI_COMM_WORLD (OTF2 coordinates
// the ranks through PMPI, so the collector never records itself).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "collector/chunk_pool.hpp"

namespace hindsight::collect {

struct FlushInterval {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

class TraceArchive {
public:
    // Opens DIR/traces.otf2 for writing; throws hindsight::Error.
    // `with_mpi` false: a process without MPI, OTF2's serial collectives.
    TraceArchive(const std::string& dir, std::uint64_t buffer_bytes, int world_rank, bool with_mpi = true);
    TraceArchive(const TraceArchive&) = delete;
    TraceArchive& operator=(const TraceArchive&) = delete;
    ~TraceArchive();

    OTF2_EvtWriter* events() const { return events_; }
    // The event writer of another thread's location (OpenMP threads,
    // openmp_recorder.hpp); any thread may ask, OTF2 locks the archive.
    // nullptr when OTF2 cannot make one.
    OTF2_EvtWriter* thread_events(OTF2_LocationRef location);
    // Writes a thread's remaining events; returns its event count.
    std::uint64_t close_thread_events(OTF2_EvtWriter* writer);

    // True when a buffer flush finished or OTF2 reported an error since the
    // last take_flush(): one test per event on the wrappers' path.
    bool needs_attention() const { return finished_flush_.has_value() || !error_.empty(); }
    // A flush of the event buffer that happened since the last call:
    // OTF2 wrote the buffer to disk between `begin` and `end`.
    std::optional<FlushInterval> take_flush() {
        auto f = finished_flush_;
        finished_flush_.reset();
        return f;
    }
    // The first error OTF2 reported, e.g. "File is too large: POSIX:
    // DIR/traces/0.evt"; empty while all is well. OTF2 reports a failed
    // buffer flush only this way: the writing call that triggered the flush
    // still succeeds.
    const std::string& error() const { return error_; }

    // Writes the remaining events to disk (local); returns the event count.
    std::uint64_t close_events();
    // Local definitions of this rank's location and of `threads`, its other
    // locations (mapping tables, clock offsets: the same for all of them).
    void write_local_definitions(const std::function<void(OTF2_DefWriter*)>& write,
                                 const std::vector<OTF2_LocationRef>& threads = {});
    // Global definitions; rank 0 only.
    void write_global_definitions(const std::function<void(OTF2_GlobalDefWriter*)>& write);
    // Finishes the archive; collective.
    void close();
    // Gives up without the collective close, for a process that ends
    // without MPI_Finalize (the other ranks may be gone already).
    void abandon();

    const std::string& directory() const { return dir_; }

private:
    static const OTF2_FlushCallbacks flush_callbacks_;
    static OTF2_FlushType pre_flush(void* self, OTF2_FileType type, OTF2_LocationRef, void*, bool final);
    static OTF2_TimeStamp post_flush(void* self, OTF2_FileType type, OTF2_LocationRef);
    static OTF2_ErrorCode on_error(void* self, const char* file, std::uint64_t line, const char* function,
                                   OTF2_ErrorCode code, const char* format, va_list args);
    void open(int world_rank, bool with_mpi);
    static void keep_unclosed(OTF2_Archive* archive);
    void check(OTF2_ErrorCode code, const char* what) const;

    struct Closer {
        void operator()(OTF2_Archive* archive) const { OTF2_Archive_Close(archive); }
    };

    std::string dir_;
    int world_rank_;
    std::string error_;
    OTF2_ErrorCallback previous_error_callback_ = nullptr;
    ChunkPool pool_;
    std::unique_ptr<OTF2_Archive, Closer> archive_;
    OTF2_EvtWriter* events_ = nullptr;  // owned by the archive
    bool event_files_open_ = false;
    // Flushes of the master's buffer (the only ones recorded as regions).
    std::optional<std::uint64_t> flush_begin_;
    std::optional<FlushInterval> finished_flush_;
};

}  // namespace hindsight::collect
