#include "collector/mpi_handlers.hpp"

#include <cstring>

#include "common/communicator_origin.hpp"

namespace hindsight::collect {

namespace {

std::uint64_t message_bytes(int count, MPI_Datatype type) {
    int size = 0;
    PMPI_Type_size(type, &size);
    return count <= 0 || size <= 0 ? 0 : static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

std::uint64_t received_bytes(const MPI_Status& status) {
    int count = 0;
    PMPI_Get_count(&status, MPI_BYTE, &count);
    return count == MPI_UNDEFINED || count < 0 ? 0 : static_cast<std::uint64_t>(count);
}

std::uint32_t u32(int v) { return static_cast<std::uint32_t>(v); }

// FNV-1a over the bits of MPI handles and integers (handles are integers in
// MPICH, pointers in other MPIs): equal for equal arguments in equal order.
constexpr std::uint64_t kSignatureBasis = 0xcbf29ce484222325ULL;
template <class T>
std::uint64_t signature_step(std::uint64_t hash, const T& value) {
    static_assert(sizeof(T) <= sizeof(std::uint64_t));
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return (hash ^ bits) * 0x100000001b3ULL;
}

// Rootless operations have the root "undefined". So have rooted ones on an
// inter-communicator: there MPI names the root to the other group only (the
// root's own group passes MPI_ROOT or MPI_PROC_NULL), so not every member
// could name it; all of them record the same operation without a root.
std::uint32_t collective_root(Measurement& m, OTF2_CommRef comm, int root) {
    return root < 0 || m.comms().inter(comm) ? OTF2_UNDEFINED_UINT32 : u32(root);
}

// What a send request will need to record when it starts or completes.
TrackedRequest send_request(Measurement& m, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::Send;
    r.comm = m.comms().id(comm);
    r.peer = m.comms().peer(r.comm, dest);
    r.tag = u32(tag);
    r.bytes = message_bytes(count, type);
    return r;
}

// A receive request: its envelope comes from the status at completion.
TrackedRequest recv_request(Measurement& m, MPI_Comm comm) {
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::Recv;
    r.comm = m.comms().id(comm);
    return r;
}

}  // namespace

void on_send(MpiCall& call, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    const Measurement::RegistryLock lock(call.measurement());
    if (dest == MPI_PROC_NULL) return;
    Measurement& m = call.measurement();
    const OTF2_CommRef id = m.comms().id(comm);
    m.mpi_send(m.comms().peer(id, dest), id, u32(tag), message_bytes(count, type));
}

void on_recv(MpiCall& call, const MPI_Status& status, int source, MPI_Comm comm) {
    const Measurement::RegistryLock lock(call.measurement());
    if (source == MPI_PROC_NULL || status.MPI_SOURCE == MPI_PROC_NULL) return;
    Measurement& m = call.measurement();
    const OTF2_CommRef id = m.comms().id(comm);
    m.mpi_recv(m.comms().peer(id, status.MPI_SOURCE), id, u32(status.MPI_TAG), received_bytes(status));
}

void on_isend(MpiCall& call, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    if (dest == MPI_PROC_NULL) return;
    Measurement& m = call.measurement();
    const TrackedRequest r = send_request(m, count, type, dest, tag, comm);
    const std::uint64_t id = m.requests().start(request, r);
    // The send began when the call did: stamped when MPI_Isend returned, a
    // small message may already have been received on another rank, which
    // a correct run on one clock would show as a message received before it
    // was sent. No event of this location lies between the two times.
    m.mpi_isend_at(call.entered(), r.peer, r.comm, r.tag, r.bytes, id);
}

void on_irecv(MpiCall& call, int source, int /*tag*/, MPI_Comm comm, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    if (source == MPI_PROC_NULL) return;
    Measurement& m = call.measurement();
    m.mpi_irecv_request(m.requests().start(request, recv_request(m, comm)));
}

void on_send_init(MpiCall& call, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    if (dest == MPI_PROC_NULL) return;
    Measurement& m = call.measurement();
    m.requests().add_persistent(request, send_request(m, count, type, dest, tag, comm));
}

void on_recv_init(MpiCall& call, int source, int /*tag*/, MPI_Comm comm, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    if (source == MPI_PROC_NULL) return;
    Measurement& m = call.measurement();
    m.requests().add_persistent(request, recv_request(m, comm));
}

void on_mprobe(MpiCall& call, MPI_Comm comm, MPI_Message message) {
    const Measurement::RegistryLock lock(call.measurement());
    // Remembered while recording is paused too: the receive may come later.
    Measurement& m = call.measurement();
    m.messages().matched(message, m.comms().id(comm));
}

void on_mrecv(MpiCall& call, const MPI_Status& status, MPI_Message message) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto comm = m.messages().received(message);
    if (!call || !comm || status.MPI_SOURCE == MPI_PROC_NULL) return;
    m.mpi_recv(m.comms().peer(*comm, status.MPI_SOURCE), *comm, u32(status.MPI_TAG), received_bytes(status));
}

void on_imrecv(MpiCall& call, MPI_Message message, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto comm = m.messages().received(message);
    if (!call || !comm) return;
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::Recv;
    r.comm = *comm;
    m.mpi_irecv_request(m.requests().start(request, r));
}

void on_iprobe(MpiCall& call, int source, int tag, MPI_Comm comm, int flag) {
    const Measurement::RegistryLock lock(call.measurement());
    // The envelope identifies the poll.
    if (!flag) call.unsuccessful(signature_step(signature_step(signature_step(kSignatureBasis, source), tag), comm));
}

std::uint64_t request_signature(int count, const MPI_Request requests[]) {
    std::uint64_t hash = signature_step(kSignatureBasis, count);
    for (int i = 0; i < count; ++i) hash = signature_step(hash, requests[i]);
    return hash;
}

void on_start(MpiCall& call, int count, const MPI_Request requests[]) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    for (int i = 0; i < count; ++i) {
        const TrackedRequest* r = m.requests().restart(requests[i]);
        if (!r) continue;
        // Like MPI_Isend's (on_isend), at the start of the call.
        if (r->kind == TrackedRequest::Kind::Send) m.mpi_isend_at(call.entered(), r->peer, r->comm, r->tag, r->bytes, r->id);
        else m.mpi_irecv_request_at(call.entered(), r->id);
    }
}

void on_request_free(MpiCall& call, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    // A freed request completes unobserved; its record goes with it.
    call.measurement().requests().forget(request);
}

MPI_Status* prepare_completion(MpiCall& call, int count, const MPI_Request requests[], MPI_Status statuses[]) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto n = static_cast<std::size_t>(count < 0 ? 0 : count);
    m.scratch_requests().assign(requests, requests + n);
    if (statuses != MPI_STATUSES_IGNORE) return statuses;
    if (m.scratch_statuses().size() < n) m.scratch_statuses().resize(n);
    return m.scratch_statuses().data();
}

void on_completed(MpiCall& call, MPI_Request handle, const MPI_Status& status) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    TrackedRequest* r = m.requests().find(handle);
    if (!r || !r->active) return;
    int cancelled = 0;
    PMPI_Test_cancelled(&status, &cancelled);
    if (cancelled && r->kind == TrackedRequest::Kind::FileIo) {
        m.io_operation_cancelled(r->io_handle, r->id);
    } else if (r->kind == TrackedRequest::Kind::FileIo) {
        m.io_operation_complete(r->io_handle, file_bytes(status), r->id);
    } else if (cancelled) {
        m.mpi_request_cancelled(r->id);
    } else if (r->kind == TrackedRequest::Kind::Send) {
        m.mpi_isend_complete(r->id);
    } else if (r->kind == TrackedRequest::Kind::Collective) {
        m.nonblocking_collective_complete(r->op, r->comm, r->peer, r->bytes, r->received, r->id, r->started_by,
                                          r->sources);
    } else if (r->kind == TrackedRequest::Kind::CommDup) {
        m.comms().finish_dup(r->id);
    } else if (r->kind == TrackedRequest::Kind::Rma) {
        on_rma_request_completed(m, r->window, r->id);
    } else {
        m.mpi_irecv(m.comms().peer(r->comm, status.MPI_SOURCE), r->comm, u32(status.MPI_TAG), received_bytes(status),
                    r->id);
    }
    m.requests().completed(handle);
}

void on_tested(MpiCall& call, MPI_Request handle) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const TrackedRequest* r = m.requests().find(handle);
    // An idup's request has no OTF2 request events to test, nor has a
    // one-sided transfer's (its matching id is no request id).
    if (!r || !r->active || r->kind == TrackedRequest::Kind::CommDup || r->kind == TrackedRequest::Kind::Rma) return;
    if (r->kind == TrackedRequest::Kind::FileIo)
        m.io_operation_test(r->io_handle, r->id);
    else
        m.mpi_request_test(r->id);
}

void on_collective_begin(MpiCall& call) { call.measurement().mpi_collective_begin(); }

void on_collective_end(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root, CollectiveBytes bytes) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const OTF2_CommRef id = m.comms().id(comm);
    m.mpi_collective_end(op, id, collective_root(m, id, root), bytes.sent, bytes.received);
}

void on_collective_end(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root,
                       const CollectiveExchange& exchange) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const OTF2_CommRef id = m.comms().id(comm);
    m.mpi_collective_end(op, id, collective_root(m, id, root), exchange.bytes.sent, exchange.bytes.received,
                         m.source_group(id, exchange.sources));
}

namespace {

void start_icollective(Measurement& m, OTF2_CollectiveOp op, MPI_Comm comm, int root, CollectiveBytes bytes,
                       const ReceiveSources* sources, MPI_Request request) {
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::Collective;
    r.op = op;
    r.comm = m.comms().id(comm);
    r.peer = collective_root(m, r.comm, root);
    r.bytes = bytes.sent;
    r.received = bytes.received;
    if (sources) r.sources = m.source_group(r.comm, *sources);
    r.started_by = m.current_region();
    m.nonblocking_collective_request(r.comm, m.requests().start(request, r));
}

}  // namespace

void on_icollective(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root, CollectiveBytes bytes,
                    MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    start_icollective(call.measurement(), op, comm, root, bytes, nullptr, request);
}

void on_icollective(MpiCall& call, OTF2_CollectiveOp op, MPI_Comm comm, int root,
                    const CollectiveExchange& exchange, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    start_icollective(call.measurement(), op, comm, root, exchange.bytes, &exchange.sources, request);
}

void on_comm_created(MpiCall& call, MPI_Comm comm, MPI_Comm parent, MpiFunction creator, bool reorder) {
    Measurement& m = call.measurement();
    if (comm == MPI_COMM_NULL) return;
    // The key's agreement is collective: no registry lock is held meanwhile,
    // else threads creating communicators on two ranks could wait for each other.
    CommRecord record;
    {
        const Measurement::RegistryLock lock(m);
        record = m.comms().describe(comm, parent, communicator_name({info(creator).name, reorder, m.call_path()}));
    }
    m.comms().agree(comm, record);
    const Measurement::RegistryLock lock(m);
    m.comms().add_created(comm, std::move(record));
}

void on_comm_free(MpiCall& call, MPI_Comm comm) {
    const Measurement::RegistryLock lock(call.measurement());
    call.measurement().comms().freed(comm);
}

void on_comm_idup(MpiCall& call, MPI_Comm comm, MPI_Comm parent, MpiFunction creator, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::CommDup;
    const std::uint64_t id = m.requests().start(request, r);
    m.comms().begin_dup(comm, parent, communicator_name({info(creator).name, false, m.call_path()}), id);
}

}  // namespace hindsight::collect
