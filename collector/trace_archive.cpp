#include "collector/trace_archive.hpp"

#include <mpi.h>

// OTF2's ready-made MPI collectives, told to call PMPI so that the archive's
// own communication is not recorded. The header is written for C.
#define OTF2_MPI_USE_PMPI
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <otf2/OTF2_MPI_Collectives.h>
#include <otf2/OTF2_Pthread_Locks.h>
#pragma GCC diagnostic pop

#include <array>
#include <cstdio>

#include "collector/timer.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

TraceArchive::TraceArchive(const std::string& dir, std::uint64_t buffer_bytes, int world_rank, bool with_mpi)
    : dir_(dir), world_rank_(world_rank), pool_(buffer_bytes, chunk_size_for(buffer_bytes)) {
    // OTF2's messages become ours (one line, through the collector's channel).
    previous_error_callback_ = OTF2_Error_RegisterCallback(&TraceArchive::on_error, this);
    try {
        open(world_rank, with_mpi);
    } catch (...) {
        // OTF2 3.0 crashes closing an archive whose event files failed to
        // open; as after abandon(), the archive is left as it is.
        keep_unclosed(archive_.release());
        OTF2_Error_RegisterCallback(previous_error_callback_, nullptr);
        throw;
    }
}

void TraceArchive::open(int world_rank, bool with_mpi) {
    const std::uint64_t chunk = pool_.chunk_bytes();
    archive_.reset(OTF2_Archive_Open(dir_.c_str(), "traces", OTF2_FILEMODE_WRITE, chunk, chunk,
                                     OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
    if (!archive_) throw Error(dir_, "OTF2 cannot create the archive" + (error_.empty() ? "" : ": " + error_));
    check(OTF2_Archive_SetFlushCallbacks(archive_.get(), &flush_callbacks_, this), "flush callbacks");
    check(OTF2_Archive_SetMemoryCallbacks(archive_.get(), &ChunkPool::callbacks, &pool_), "memory callbacks");
    check(with_mpi ? OTF2_MPI_Archive_SetCollectiveCallbacks(archive_.get(), MPI_COMM_WORLD, MPI_COMM_NULL)
                   : OTF2_Archive_SetSerialCollectiveCallbacks(archive_.get()),
          "collective callbacks");
    // OpenMP threads get event writers of their own while the master writes.
    check(OTF2_Pthread_Archive_SetLockingCallbacks(archive_.get(), nullptr), "locking callbacks");
    check(OTF2_Archive_SetCreator(archive_.get(), "Hindsight collector"), "creator");
    check(OTF2_Archive_OpenEvtFiles(archive_.get()), "opening the event files");
    event_files_open_ = true;
    events_ = OTF2_Archive_GetEvtWriter(archive_.get(), static_cast<OTF2_LocationRef>(world_rank));
    if (!events_) throw Error(dir_, "OTF2 cannot create the event writer");
}

TraceArchive::~TraceArchive() {
    archive_.reset();
    OTF2_Error_RegisterCallback(previous_error_callback_, nullptr);
}

void TraceArchive::check(OTF2_ErrorCode code, const char* what) const {
    if (code != OTF2_SUCCESS) {
        throw Error(dir_, std::string(what) + ": " + (error_.empty() ? OTF2_Error_GetDescription(code) : error_));
    }
}

OTF2_ErrorCode TraceArchive::on_error(void* self, const char* /*file*/, std::uint64_t /*line*/,
                                      const char* /*function*/, OTF2_ErrorCode code, const char* format,
                                      va_list args) {
    auto* archive = static_cast<TraceArchive*>(self);
    if (!archive->error_.empty()) return code;  // the first error is the cause, the rest follow from it
    char detail[512] = {};
    std::vsnprintf(detail, sizeof detail, format, args);
    archive->error_ = std::string(OTF2_Error_GetDescription(code)) + (detail[0] ? std::string(": ") + detail : "");
    return code;
}

OTF2_FlushType TraceArchive::pre_flush(void* self, OTF2_FileType type, OTF2_LocationRef location, void*,
                                       bool final) {
    auto* archive = static_cast<TraceArchive*>(self);
    // Another thread's flush (an OpenMP thread's buffer) is not recorded:
    // these members belong to the master.
    if (location != static_cast<OTF2_LocationRef>(archive->world_rank_)) return OTF2_FLUSH;
    if (type == OTF2_FILETYPE_EVENTS && !final) archive->flush_begin_ = timestamp();
    return OTF2_FLUSH;
}

OTF2_TimeStamp TraceArchive::post_flush(void* self, OTF2_FileType type, OTF2_LocationRef location) {
    auto* archive = static_cast<TraceArchive*>(self);
    const std::uint64_t now = timestamp();
    if (location != static_cast<OTF2_LocationRef>(archive->world_rank_)) return now;
    if (type == OTF2_FILETYPE_EVENTS && archive->flush_begin_) {
        archive->finished_flush_ = FlushInterval{*archive->flush_begin_, now};
        archive->flush_begin_.reset();
    }
    return now;
}

const OTF2_FlushCallbacks TraceArchive::flush_callbacks_ = {&TraceArchive::pre_flush,
                                                            &TraceArchive::post_flush};

std::uint64_t TraceArchive::close_events() {
    std::uint64_t count = 0;
    if (events_) {
        OTF2_EvtWriter_GetNumberOfEvents(events_, &count);
        OTF2_EvtWriter* writer = events_;
        events_ = nullptr;
        check(OTF2_Archive_CloseEvtWriter(archive_.get(), writer), "writing the events");
    }
    return count;
}

OTF2_EvtWriter* TraceArchive::thread_events(OTF2_LocationRef location) {
    return archive_ ? OTF2_Archive_GetEvtWriter(archive_.get(), location) : nullptr;
}

std::uint64_t TraceArchive::close_thread_events(OTF2_EvtWriter* writer) {
    std::uint64_t count = 0;
    OTF2_EvtWriter_GetNumberOfEvents(writer, &count);
    check(OTF2_Archive_CloseEvtWriter(archive_.get(), writer), "writing a thread's events");
    return count;
}

void TraceArchive::write_local_definitions(const std::function<void(OTF2_DefWriter*)>& write,
                                           const std::vector<OTF2_LocationRef>& threads) {
    if (event_files_open_) {
        event_files_open_ = false;
        check(OTF2_Archive_CloseEvtFiles(archive_.get()), "closing the event files");
    }
    check(OTF2_Archive_OpenDefFiles(archive_.get()), "opening the definition files");
    std::vector<OTF2_LocationRef> locations{static_cast<OTF2_LocationRef>(world_rank_)};
    locations.insert(locations.end(), threads.begin(), threads.end());
    for (const OTF2_LocationRef location : locations) {
        OTF2_DefWriter* writer = OTF2_Archive_GetDefWriter(archive_.get(), location);
        if (!writer) throw Error(dir_, "OTF2 cannot create the local definition writer");
        write(writer);
        check(OTF2_Archive_CloseDefWriter(archive_.get(), writer), "writing the local definitions");
    }
    check(OTF2_Archive_CloseDefFiles(archive_.get()), "closing the definition files");
}

void TraceArchive::write_global_definitions(const std::function<void(OTF2_GlobalDefWriter*)>& write) {
    OTF2_GlobalDefWriter* writer = OTF2_Archive_GetGlobalDefWriter(archive_.get());
    if (!writer) throw Error(dir_, "OTF2 cannot create the global definition writer");
    write(writer);
    check(OTF2_Archive_CloseGlobalDefWriter(archive_.get(), writer), "writing the global definitions");
}

void TraceArchive::close() {
    OTF2_Archive* archive = archive_.release();
    if (archive) check(OTF2_Archive_Close(archive), "closing the archive");
}

void TraceArchive::abandon() {
    // Deliberately not closed: OTF2_Archive_Close synchronises with ranks
    // that may have ended, and after a failed write it crashes. The events
    // written so far stay on disk.
    keep_unclosed(archive_.release());
}

void TraceArchive::keep_unclosed(OTF2_Archive* archive) {
    // Still referenced until the process ends (a plain array is never
    // destroyed), so that leak checkers do not report what is left
    // allocated on purpose. A process has one archive.
    static std::array<OTF2_Archive*, 4> unclosed{};
    static std::size_t count = 0;
    if (archive && count < unclosed.size()) unclosed[count++] = archive;
}

}  // namespace hindsight::collect
