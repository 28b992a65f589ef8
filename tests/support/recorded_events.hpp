// What a RankBuilder records: one entry per OTF2 event of a location, in the
// order they will be written, plus its clock offsets. Communicator ranks are
// already resolved to what OTF2 stores (ranks in the communicator, comm ids).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <otf2/OTF2_Events.h>

#include "common/clock.hpp"

namespace hindsight::testing {

namespace event {

struct ProgramBegin {
    std::vector<std::string> arguments;  // the program's, after its name
};
struct ProgramEnd {
    std::int64_t exit_status = 0;
};
struct Enter {
    std::string region;
};
struct Leave {
    std::string region;
};
// Sender or receiver side of a message: `peer` is the rank of the other
// side in communicator `comm`.
struct Envelope {
    std::uint32_t peer = 0;
    std::uint32_t comm = 0;
    std::uint32_t tag = 0;
    std::uint64_t bytes = 0;
};
struct MpiSend {
    Envelope envelope;
};
struct MpiRecv {
    Envelope envelope;
};
struct MpiIsend {
    Envelope envelope;
    std::uint64_t request = 0;
};
struct MpiIsendComplete {
    std::uint64_t request = 0;
};
struct MpiIrecvRequest {
    std::uint64_t request = 0;
};
struct MpiIrecv {
    Envelope envelope;
    std::uint64_t request = 0;
};
struct MpiRequestTest {
    std::uint64_t request = 0;
};
struct MpiRequestCancelled {
    std::uint64_t request = 0;
};
struct MpiCollectiveBegin {};
struct MpiCollectiveEnd {
    OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
    std::uint32_t comm = 0;
    std::uint32_t root = 0;  // OTF2_UNDEFINED_UINT32 when the operation has none
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
    // The world ranks this rank received data from, as Hindsight's
    // collector records them for MPI_Alltoallv & co.; none: not recorded.
    std::optional<std::vector<int>> sources;
};
struct NonBlockingCollectiveRequest {
    std::uint64_t request = 0;
};
struct NonBlockingCollectiveComplete {
    MpiCollectiveEnd collective;
    std::uint64_t request = 0;
};
// Score-P's records of an MPI-IO operation on I/O handle `handle`.
struct IoOperationBegin {
    std::uint32_t handle = 0;
    OTF2_IoOperationMode mode = OTF2_IO_OPERATION_MODE_READ;
    OTF2_IoOperationFlag flags = OTF2_IO_OPERATION_FLAG_NONE;
    std::uint64_t bytes_request = 0;
    std::uint64_t matching_id = 0;
};
struct IoOperationIssued {
    std::uint32_t handle = 0;
    std::uint64_t matching_id = 0;
};
struct IoOperationComplete {
    std::uint32_t handle = 0;
    std::uint64_t bytes_result = 0;
    std::uint64_t matching_id = 0;
};

// Score-P's records of one-sided communication on RMA window `window`;
// `remote` is a rank in the window's communicator.
struct RmaCollectiveBegin {};
struct RmaCollectiveEnd {
    OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
    OTF2_RmaSyncLevel level = OTF2_RMA_SYNC_LEVEL_NONE;
    std::uint32_t window = 0;
};
struct RmaWinCreate {
    std::uint32_t window = 0;
};
struct RmaWinDestroy {
    std::uint32_t window = 0;
};
struct RmaGroupSync {
    OTF2_RmaSyncLevel level = OTF2_RMA_SYNC_LEVEL_NONE;
    std::uint32_t window = 0;
    std::vector<int> world_ranks;  // the partners, written as a group of world ranks
};
struct RmaLock {
    enum class Action : std::uint8_t { Request, Release };
    Action action = Action::Request;
    std::uint32_t window = 0;
    std::uint32_t remote = 0;
    std::uint64_t lock_id = 0;
    bool exclusive = false;
};
struct RmaTransfer {
    bool put = true;  // else a get
    std::uint32_t window = 0;
    std::uint32_t remote = 0;
    std::uint64_t bytes = 0;
    std::uint64_t matching_id = 0;
};
// RMA_OP_COMPLETE_BLOCKING (at both ends), _NON_BLOCKING (at the origin
// only) or _REMOTE (at the target, after the origin).
struct RmaOpComplete {
    enum class At : std::uint8_t { BothEnds, Origin, Target };
    std::uint32_t window = 0;
    std::uint64_t matching_id = 0;
    At at = At::BothEnds;
};
// OpenMP's thread records, as Score-P writes them (model OpenMP).
struct ThreadFork {
    std::uint32_t threads = 0;  // the team's size
};
struct ThreadJoin {};
struct ThreadTeamBegin {};  // of the rank's team communicator
struct ThreadTeamEnd {};
struct ThreadAcquireLock {
    std::uint32_t lock = 0;
    std::uint32_t order = 0;
};
struct ThreadReleaseLock {
    std::uint32_t lock = 0;
    std::uint32_t order = 0;
};
// Score-P's records of an explicit task (in the rank's team), beside its
// region: created, switched to, completed; the task is named by the
// thread that created it and its creation number there.
struct ThreadTask {
    enum class Kind : std::uint8_t { Create, Switch, Complete };
    Kind kind = Kind::Create;
    std::uint32_t creating_thread = 0;
    std::uint32_t generation = 0;
};

}  // namespace event

using EventPayload =
    std::variant<event::ProgramBegin, event::ProgramEnd, event::Enter, event::Leave,
                 event::MpiSend, event::MpiRecv, event::MpiIsend, event::MpiIsendComplete,
                 event::MpiIrecvRequest, event::MpiIrecv, event::MpiRequestTest,
                 event::MpiRequestCancelled, event::MpiCollectiveBegin, event::MpiCollectiveEnd,
                 event::NonBlockingCollectiveRequest, event::NonBlockingCollectiveComplete,
                 event::IoOperationBegin, event::IoOperationIssued, event::IoOperationComplete,
                 event::RmaCollectiveBegin, event::RmaCollectiveEnd, event::RmaWinCreate, event::RmaWinDestroy,
                 event::RmaGroupSync, event::RmaLock, event::RmaTransfer, event::RmaOpComplete,
                 event::ThreadFork, event::ThreadJoin, event::ThreadTeamBegin, event::ThreadTeamEnd,
                 event::ThreadAcquireLock, event::ThreadReleaseLock, event::ThreadTask>;

struct RecordedEvent {
    Ticks time = 0;
    EventPayload payload;
};

struct ClockOffset {
    Ticks time = 0;
    std::int64_t offset = 0;
    double stddev = 0.0;
};

// A request started on a rank and not completed yet. The envelope of a
// receive request is unknown until it completes when it was started through
// the low-level irecv_request_event().
struct PendingRequest {
    std::uint64_t id = 0;
    bool is_send = false;
    bool has_envelope = false;
    event::Envelope envelope;
    // A non-blocking I/O operation: its completion, written where a
    // completion call (MPI_Wait, ...) completes the request.
    std::optional<event::IoOperationComplete> io;
};

}  // namespace hindsight::testing
