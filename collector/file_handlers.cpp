// MPI-IO in Score-P's records (see mpi_handlers.hpp): what the generated
// wrappers of the file_* kinds of mpi_functions.spec call.
#include "collector/mpi_handlers.hpp"

namespace hindsight::collect {
namespace {

OTF2_IoAccessMode access_mode(int amode) {
    if (amode & MPI_MODE_RDONLY) return OTF2_IO_ACCESS_MODE_READ_ONLY;
    if (amode & MPI_MODE_WRONLY) return OTF2_IO_ACCESS_MODE_WRITE_ONLY;
    return OTF2_IO_ACCESS_MODE_READ_WRITE;
}

OTF2_IoCreationFlag creation_flags(int amode) {
    unsigned flags = OTF2_IO_CREATION_FLAG_NONE;
    if (amode & MPI_MODE_CREATE) flags |= OTF2_IO_CREATION_FLAG_CREATE;
    if (amode & MPI_MODE_EXCL) flags |= OTF2_IO_CREATION_FLAG_EXCLUSIVE;
    return static_cast<OTF2_IoCreationFlag>(flags);
}

OTF2_IoStatusFlag status_flags(int amode) {
    unsigned flags = OTF2_IO_STATUS_FLAG_NONE;
    if (amode & MPI_MODE_APPEND) flags |= OTF2_IO_STATUS_FLAG_APPEND;
    // As Score-P: deletion on close is the closest status OTF2 has.
    if (amode & MPI_MODE_DELETE_ON_CLOSE) flags |= OTF2_IO_STATUS_FLAG_CLOSE_ON_EXEC;
    return static_cast<OTF2_IoStatusFlag>(flags);
}

OTF2_IoSeekOption seek_option(int whence) {
    if (whence == MPI_SEEK_SET) return OTF2_IO_SEEK_FROM_START;
    if (whence == MPI_SEEK_CUR) return OTF2_IO_SEEK_FROM_CURRENT;
    if (whence == MPI_SEEK_END) return OTF2_IO_SEEK_FROM_END;
    return OTF2_IO_SEEK_FROM_START;
}

}  // namespace

std::uint64_t file_bytes(const MPI_Status& status) {
    int bytes = MPI_UNDEFINED;
    if (PMPI_Get_count(&status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes == MPI_UNDEFINED || bytes < 0)
        return OTF2_UNDEFINED_UINT64;
    return static_cast<std::uint64_t>(bytes);
}

void on_file_open(MpiCall& call, MPI_Comm comm, const char* filename, int amode, MPI_File fh) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const std::uint32_t handle = m.io().opened(fh, filename ? filename : "", m.comms().id(comm), amode);
    if (call) m.io_create_handle(handle, access_mode(amode), creation_flags(amode), status_flags(amode));
}

void on_file_close(MpiCall& call, MPI_File fh, bool closed) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto handle = m.io().handle(fh);
    // A failed close leaves the file open.
    if (!handle || !closed) return;
    if (call) {
        if (m.io().amode(fh) & MPI_MODE_DELETE_ON_CLOSE) m.io_delete_file(m.io().file_of(*handle));
        m.io_destroy_handle(*handle);
    }
    m.io().closed(fh);
}

void on_file_delete(MpiCall& call, const char* filename) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    m.io_delete_file(m.io().file(filename ? filename : ""));
}

void on_file_seek(MpiCall& call, MPI_File fh, MPI_Offset offset, int whence, bool shared) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto handle = m.io().handle(fh);
    if (!handle) return;
    MPI_Offset position = 0;
    const int rc = shared ? PMPI_File_get_position_shared(fh, &position) : PMPI_File_get_position(fh, &position);
    m.io_seek(*handle, offset, seek_option(whence),
              rc == MPI_SUCCESS ? static_cast<std::uint64_t>(position) : OTF2_UNDEFINED_UINT64);
}

FileOperation on_file_io_begin(MpiCall& call, MPI_File fh, OTF2_IoOperationMode mode, bool collective,
                               bool blocking, int count, MPI_Datatype datatype) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto handle = m.io().handle(fh);
    if (!handle) return {};
    int type_size = 0;
    const bool sized = count >= 0 && PMPI_Type_size(datatype, &type_size) == MPI_SUCCESS && type_size >= 0;
    const std::uint64_t bytes =
        sized ? static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(type_size) : OTF2_UNDEFINED_UINT64;
    const unsigned flags = (blocking ? 0u : unsigned{OTF2_IO_OPERATION_FLAG_NON_BLOCKING}) |
                           (collective ? unsigned{OTF2_IO_OPERATION_FLAG_COLLECTIVE} : 0u);
    const FileOperation op{*handle, m.requests().new_id()};
    m.io_operation_begin(op.handle, mode, static_cast<OTF2_IoOperationFlag>(flags), bytes, op.matching_id);
    return op;
}

void on_file_io_complete(MpiCall& call, const FileOperation& op, int rc, const MPI_Status& status) {
    const Measurement::RegistryLock lock(call.measurement());
    // A failed call moved an unknown amount.
    call.measurement().io_operation_complete(op.handle, rc == MPI_SUCCESS ? file_bytes(status) : OTF2_UNDEFINED_UINT64,
                                             op.matching_id);
}

void on_file_io_issued(MpiCall& call, const FileOperation& op, int rc, MPI_Request* request) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    if (rc != MPI_SUCCESS) {
        m.io_operation_cancelled(op.handle, op.matching_id);
        return;
    }
    m.io_operation_issued(op.handle, op.matching_id);
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::FileIo;
    r.id = op.matching_id;
    r.io_handle = op.handle;
    m.requests().start_with_id(*request, r);
}

void on_file_io_split(MpiCall& call, const FileOperation& op, int rc) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    if (rc != MPI_SUCCESS) {
        m.io_operation_cancelled(op.handle, op.matching_id);
        return;
    }
    m.io_operation_issued(op.handle, op.matching_id);
    m.io().split_begun(op);
}

void on_file_io_end(MpiCall& call, MPI_File fh, int rc, const MPI_Status& status) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto handle = m.io().handle(fh);
    if (!handle) return;
    const FileOperation op = m.io().split_ended(*handle);
    if (op) on_file_io_complete(call, op, rc, status);
}

}  // namespace hindsight::collect
