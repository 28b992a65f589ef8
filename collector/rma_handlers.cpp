// MPI RMA in Score-P's records (see mpi_handlers.hpp): what the generated
// wrappers of the win_* and rma* kinds of mpi_functions.spec call.
#include "collector/mpi_handlers.hpp"

#include "collector/comm_registry.hpp"

namespace hindsight::collect {
namespace {

// Score-P's synchronization levels: creating and freeing a window, posting
// and starting an epoch synchronize the processes; a fence and the calls
// that end an epoch their memory too.
constexpr OTF2_RmaSyncLevel kProcessSync = OTF2_RMA_SYNC_LEVEL_PROCESS;
constexpr auto kMemorySync = static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY);
constexpr OTF2_RmaSyncLevel kNoSync = OTF2_RMA_SYNC_LEVEL_NONE;

using RmaCompletion = Measurement::RmaCompletion;

// Writes the completion of each transfer of `win` the synchronization
// completes at its target (only forgets them where the call is not
// recorded): at both ends, or at the target only where the origin's part
// completed before.
void complete_transfers(MpiCall& call, MPI_Win win, std::uint32_t id, std::optional<int> target) {
    Measurement& m = call.measurement();
    for (const RmaPending& done : m.rma().complete(win, target))
        if (call)
            m.rma_op_complete(done.completed_locally ? RmaCompletion::AtTarget : RmaCompletion::AtBothEnds, id,
                              done.matching_id);
}

}  // namespace

std::uint64_t rma_bytes(int count, MPI_Datatype datatype) {
    int size = 0;
    if (count <= 0 || PMPI_Type_size(datatype, &size) != MPI_SUCCESS || size <= 0) return 0;
    return static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(size);
}

void on_rma_collective_begin(MpiCall& call) { call.measurement().rma_collective_begin(); }

void on_rma_collective_begin(MpiCall& call, MPI_Win win) {
    const Measurement::RegistryLock lock(call.measurement());
    // No begin without the end an unknown window does not get.
    if (call.measurement().rma().window(win)) call.measurement().rma_collective_begin();
}

void on_win_created(MpiCall& call, MPI_Comm comm, MPI_Win win, OTF2_CollectiveOp op) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const bool allocated = op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE;
    const std::uint32_t id = m.rma().created(win, m.comms().id(comm), allocated);
    if (!call) return;
    m.rma_win_create(id);
    m.rma_collective_end(op, kProcessSync, id);
}

void on_win_freed(MpiCall& call, MPI_Win win) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id) return;
    const bool allocated = m.rma().allocated(win);
    m.rma().freed(win);
    if (!call) return;
    m.rma_win_destroy(*id);
    m.rma_collective_end(allocated ? OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE
                                   : OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
                         kProcessSync, *id);
}

void on_win_fence(MpiCall& call, MPI_Win win) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id) return;
    complete_transfers(call, win, *id, std::nullopt);
    if (call) m.rma_collective_end(OTF2_COLLECTIVE_OP_BARRIER, kMemorySync, *id);
}

std::optional<std::uint64_t> on_rma_transfer(MpiCall& call, MPI_Win win, int target, RmaKind kind,
                                             OTF2_RmaAtomicType atomic, std::uint64_t sent, std::uint64_t received) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    // MPI_PROC_NULL: no transfer at all.
    if (!id || target < 0) return std::nullopt;
    const std::optional<std::uint64_t> matching = m.rma().issued(win, target);
    if (!matching) return std::nullopt;
    const auto remote = static_cast<std::uint32_t>(target);
    switch (kind) {
    case RmaKind::Put: m.rma_put(*id, remote, sent, *matching); break;
    case RmaKind::Get: m.rma_get(*id, remote, received, *matching); break;
    case RmaKind::Atomic: m.rma_atomic(*id, remote, atomic, sent, received, *matching); break;
    }
    return matching;
}

void on_rma_request(MpiCall& call, MPI_Win win, std::uint64_t matching_id, MPI_Request request) {
    const Measurement::RegistryLock lock(call.measurement());
    TrackedRequest tracked;
    tracked.kind = TrackedRequest::Kind::Rma;
    tracked.id = matching_id;
    tracked.window = win;
    call.measurement().requests().start_with_id(request, tracked);
}

void on_rma_request_completed(Measurement& m, MPI_Win win, std::uint64_t matching_id) {
    const auto id = m.rma().window(win);
    // A synchronization of the epoch may have completed it before.
    if (id && m.rma().complete_one_locally(win, matching_id)) m.rma_op_complete(RmaCompletion::AtOrigin, *id, matching_id);
}

void on_win_epoch_start(MpiCall& call, MPI_Win win, MPI_Group group, RmaEpoch epoch) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id) return;
    // The group is needed again where the epoch ends, even when this call
    // itself is not recorded.
    const std::uint32_t partners = m.rma_group(world_ranks_of(group));
    m.rma().opened(win, epoch, partners);
    if (call && partners != Measurement::kNoSources) m.rma_group_sync(kProcessSync, *id, partners);
}

void on_win_epoch_end(MpiCall& call, MPI_Win win, RmaEpoch epoch, bool ended) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id) return;
    const std::optional<std::uint32_t> partners = m.rma().epoch_group(win, epoch);
    if (ended) complete_transfers(call, win, *id, std::nullopt);
    if (!call || !partners || *partners == Measurement::kNoSources) return;
    m.rma_group_sync(ended ? kMemorySync : kNoSync, *id, *partners);
}

void on_rma_complete(MpiCall& call, MPI_Win win, std::optional<int> target) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (id) complete_transfers(call, win, *id, target);
}

void on_rma_complete_locally(MpiCall& call, MPI_Win win, std::optional<int> target) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id) return;
    for (const RmaPending& done : m.rma().complete_locally(win, target))
        if (call) m.rma_op_complete(RmaCompletion::AtOrigin, *id, done.matching_id);
}

namespace {

// The target of a lock record: a rank of the window, or every target.
std::uint32_t lock_target(std::optional<int> target) {
    return target ? static_cast<std::uint32_t>(*target) : OTF2_UNDEFINED_UINT32;
}

}  // namespace

void on_win_lock(MpiCall& call, MPI_Win win, std::optional<int> target, int lock_type) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id || (target && *target < 0)) return;  // MPI_PROC_NULL locks nothing
    m.rma_request_lock(call.entered(), *id, lock_target(target),
                       lock_type == MPI_LOCK_EXCLUSIVE ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED);
}

void on_win_unlock(MpiCall& call, MPI_Win win, std::optional<int> target) {
    const Measurement::RegistryLock lock(call.measurement());
    Measurement& m = call.measurement();
    const auto id = m.rma().window(win);
    if (!id) return;
    complete_transfers(call, win, *id, target);
    if (call && !(target && *target < 0)) m.rma_release_lock(*id, lock_target(target));
}

}  // namespace hindsight::collect
