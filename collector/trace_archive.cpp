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
#pragma GCC diagnostic pop

#include "collector/timer.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

TraceArchive::TraceArchive(const std::string& dir, std::uint64_t buffer_bytes, int world_rank)
    : dir_(dir), world_rank_(world_rank), pool_(buffer_bytes, chunk_size_for(buffer_bytes)) {
    const std::uint64_t chunk = pool_.chunk_bytes();
    archive_.reset(OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, chunk, chunk,
                                     OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
    if (!archive_) throw Error(dir, "OTF2 cannot create the archive");
    check(OTF2_Archive_SetFlushCallbacks(archive_.get(), &flush_callbacks_, this), "flush callbacks");
    check(OTF2_Archive_SetMemoryCallbacks(archive_.get(), &ChunkPool::callbacks, &pool_), "memory callbacks");
    check(OTF2_MPI_Archive_SetCollectiveCallbacks(archive_.get(), MPI_COMM_WORLD, MPI_COMM_NULL),
          "collective callbacks");
    check(OTF2_Archive_SetCreator(archive_.get(), "Hindsight collector"), "creator");
    check(OTF2_Archive_OpenEvtFiles(archive_.get()), "opening the event files");
    event_files_open_ = true;
    events_ = OTF2_Archive_GetEvtWriter(archive_.get(), static_cast<OTF2_LocationRef>(world_rank));
    if (!events_) throw Error(dir, "OTF2 cannot create the event writer");
}

TraceArchive::~TraceArchive() = default;

void TraceArchive::check(OTF2_ErrorCode code, const char* what) const {
    if (code != OTF2_SUCCESS) {
        throw Error(dir_, std::string(what) + ": " + OTF2_Error_GetDescription(code));
    }
}

OTF2_FlushType TraceArchive::pre_flush(void* self, OTF2_FileType type, OTF2_LocationRef, void*,
                                       bool final) {
    auto* archive = static_cast<TraceArchive*>(self);
    if (type == OTF2_FILETYPE_EVENTS && !final) archive->flush_begin_ = timestamp();
    return OTF2_FLUSH;
}

OTF2_TimeStamp TraceArchive::post_flush(void* self, OTF2_FileType type, OTF2_LocationRef) {
    auto* archive = static_cast<TraceArchive*>(self);
    const std::uint64_t now = timestamp();
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

void TraceArchive::write_local_definitions(const std::function<void(OTF2_DefWriter*)>& write) {
    if (event_files_open_) {
        event_files_open_ = false;
        check(OTF2_Archive_CloseEvtFiles(archive_.get()), "closing the event files");
    }
    check(OTF2_Archive_OpenDefFiles(archive_.get()), "opening the definition files");
    OTF2_DefWriter* writer =
        OTF2_Archive_GetDefWriter(archive_.get(), static_cast<OTF2_LocationRef>(world_rank_));
    if (!writer) throw Error(dir_, "OTF2 cannot create the local definition writer");
    write(writer);
    check(OTF2_Archive_CloseDefWriter(archive_.get(), writer), "writing the local definitions");
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
    // that may have ended. The events written so far stay on disk.
    static_cast<void>(archive_.release());
}

}  // namespace hindsight::collect
