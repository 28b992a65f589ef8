#include "tests/support/trace_builder.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include <otf2/OTF2_GeneralDefinitions.h>

#include "common/error.hpp"
#include "tests/support/archive_writer.hpp"
#include "tests/support/mpi_regions.hpp"

namespace hindsight::testing {
namespace {

// Errors of a scenario belong to no file; this names their source instead.
const char* const kSource = "trace builder";

[[noreturn]] void fail_builder(const std::string& problem) { throw Error(kSource, problem); }

bool is_rooted(OTF2_CollectiveOp op) {
    switch (op) {
        case OTF2_COLLECTIVE_OP_BCAST:
        case OTF2_COLLECTIVE_OP_SCATTER:
        case OTF2_COLLECTIVE_OP_SCATTERV:
        case OTF2_COLLECTIVE_OP_GATHER:
        case OTF2_COLLECTIVE_OP_GATHERV:
        case OTF2_COLLECTIVE_OP_REDUCE:
            return true;
        default:
            return false;
    }
}

}  // namespace

// ---------------------------------------------------------------------------
// CommTable

CommTable::CommTable(int world_size) : world_size_(world_size) {
    std::vector<int> all(static_cast<std::size_t>(world_size));
    for (int r = 0; r < world_size; ++r) all[static_cast<std::size_t>(r)] = r;
    entries_.push_back({"MPI_COMM_WORLD", std::move(all), OTF2_UNDEFINED_COMM});
    entries_.push_back({"MPI_COMM_SELF", {}, OTF2_UNDEFINED_COMM});
}

Comm CommTable::add_inter(std::vector<int> first, std::vector<int> second, std::string name) {
    if (first.empty() || second.empty()) fail_builder("each group of an intercommunicator needs a member");
    const std::size_t first_size = first.size();
    first.insert(first.end(), second.begin(), second.end());
    const Comm c = add(std::move(first), kWorld, std::move(name));
    entries_.back().parent = OTF2_UNDEFINED_COMM;
    entries_.back().first_group_size = first_size;
    return c;
}

Comm CommTable::add(std::vector<int> world_ranks, Comm parent, std::string name) {
    const Entry& p = at(parent);
    if (world_ranks.empty()) fail_builder("a communicator needs at least one member");
    std::set<int> seen;
    for (int r : world_ranks) {
        if (r < 0 || r >= world_size_)
            fail_builder("communicator member " + std::to_string(r) + " is no world rank (0.." +
                         std::to_string(world_size_ - 1) + ")");
        if (!seen.insert(r).second)
            fail_builder("world rank " + std::to_string(r) + " is twice in a communicator");
        const bool in_parent = parent == kSelf
                                   ? world_ranks.size() == 1
                                   : std::ranges::find(p.world_ranks, r) != p.world_ranks.end();
        if (!in_parent)
            fail_builder("world rank " + std::to_string(r) + " is not in the parent communicator " +
                         std::to_string(parent.id));
    }
    entries_.push_back({std::move(name), std::move(world_ranks), parent.id});
    return Comm{static_cast<std::uint32_t>(entries_.size() - 1)};
}

const CommTable::Entry& CommTable::at(Comm c) const {
    if (c.id >= entries_.size()) fail_builder("unknown communicator " + std::to_string(c.id));
    return entries_[c.id];
}

int CommTable::size(Comm c) const {
    return c == kSelf ? 1 : static_cast<int>(at(c).world_ranks.size());
}

int CommTable::rank_of(Comm c, int world_rank) const {
    if (c == kSelf) return 0;
    const auto& members = at(c).world_ranks;
    const auto it = std::ranges::find(members, world_rank);
    if (it == members.end())
        fail_builder("world rank " + std::to_string(world_rank) + " is no member of communicator " +
                     std::to_string(c.id));
    return static_cast<int>(it - members.begin());
}

// ---------------------------------------------------------------------------
// RankBuilder: bookkeeping

RankBuilder::RankBuilder(int world_rank, const CommTable& comms)
    : rank_(world_rank), comms_(&comms) {}

void RankBuilder::fail(const std::string& problem) const {
    fail_builder("rank " + std::to_string(rank_) + ": " + problem);
}

void RankBuilder::advance_to(Ticks t) {
    if (t < 0) fail("negative time " + std::to_string(t));
    if (ended_) fail("event at " + std::to_string(t) + " after PROGRAM_END");
    if (t < last_time_)
        fail("time goes backwards: " + std::to_string(t) + " after " + std::to_string(last_time_));
    last_time_ = t;
}

RankBuilder& RankBuilder::push(RecordedEvent e) {
    advance_to(e.time);
    events_.push_back(std::move(e));
    return *this;
}

void RankBuilder::require_open_region(const char* what) const {
    if (open_regions_.empty()) fail(std::string(what) + " outside of any region");
}

std::uint32_t RankBuilder::peer_rank(Comm c, int rank) const {
    comms_->rank_of(c, rank_);  // the caller must belong to `c`
    const int size = comms_->size(c);
    if (rank < 0 || rank >= size)
        fail("rank " + std::to_string(rank) + " is outside communicator " + std::to_string(c.id) +
             " of size " + std::to_string(size));
    return static_cast<std::uint32_t>(rank);
}

std::uint32_t RankBuilder::root_rank(Comm c, int root) const {
    if (root == -1) {
        comms_->rank_of(c, rank_);
        return OTF2_UNDEFINED_UINT32;
    }
    return peer_rank(c, root);
}

RequestId RankBuilder::new_request() {
    const RequestId id = next_request_++;
    pending_.push_back({id, false, false, {}, std::nullopt});
    return id;
}

void RankBuilder::check_complete() const {
    if (!open_regions_.empty()) fail("region \"" + open_regions_.back() + "\" is never left");
    if (next_sources_) fail("receive sources given, but no collective operation ends after them");
}

// ---------------------------------------------------------------------------
// RankBuilder: regions

RankBuilder& RankBuilder::enter(Ticks t, const std::string& region) {
    if (region.empty()) fail("a region needs a name");
    push({t, event::Enter{region}});
    open_regions_.push_back(region);
    return *this;
}

RankBuilder& RankBuilder::leave(Ticks t) {
    if (open_regions_.empty()) fail("leave at " + std::to_string(t) + " without an open region");
    push({t, event::Leave{open_regions_.back()}});
    open_regions_.pop_back();
    return *this;
}

RankBuilder& RankBuilder::fork(Ticks t, std::uint32_t threads) { return push({t, event::ThreadFork{threads}}); }
RankBuilder& RankBuilder::join(Ticks t) { return push({t, event::ThreadJoin{}}); }
RankBuilder& RankBuilder::team_begin(Ticks t) { return push({t, event::ThreadTeamBegin{}}); }

RankBuilder& RankBuilder::task_record(Ticks t, event::ThreadTask::Kind kind, std::uint32_t creating_thread,
                                      std::uint32_t generation) {
    return push({t, event::ThreadTask{kind, creating_thread, generation}});
}
RankBuilder& RankBuilder::team_end(Ticks t) { return push({t, event::ThreadTeamEnd{}}); }

RankBuilder& RankBuilder::acquire_lock(Ticks t, std::uint32_t lock, std::uint32_t order) {
    require_open_region("a lock acquisition");
    return push({t, event::ThreadAcquireLock{lock, order}});
}

RankBuilder& RankBuilder::release_lock(Ticks t, std::uint32_t lock, std::uint32_t order) {
    require_open_region("a lock release");
    return push({t, event::ThreadReleaseLock{lock, order}});
}

RankBuilder& RankBuilder::region(Ticks enter_time, Ticks leave_time, const std::string& name) {
    return enter(enter_time, name).leave(leave_time);
}

RankBuilder& RankBuilder::program_begin(Ticks t, std::vector<std::string> arguments) {
    if (!events_.empty()) fail("PROGRAM_BEGIN must be the first event");
    return push({t, event::ProgramBegin{std::move(arguments)}});
}

RankBuilder& RankBuilder::program_end(Ticks t, std::int64_t exit_status) {
    if (!open_regions_.empty())
        fail("PROGRAM_END while region \"" + open_regions_.back() + "\" is open");
    push({t, event::ProgramEnd{exit_status}});
    ended_ = true;
    return *this;
}

RankBuilder& RankBuilder::init(Ticks enter_time, Ticks leave_time) {
    return region(enter_time, leave_time, "MPI_Init");
}

RankBuilder& RankBuilder::finalize(Ticks enter_time, Ticks leave_time) {
    return region(enter_time, leave_time, "MPI_Finalize");
}

// ---------------------------------------------------------------------------
// RankBuilder: point-to-point

RankBuilder& RankBuilder::send(Ticks enter_time, Ticks leave_time, int dest, std::uint32_t tag,
                               std::uint64_t bytes, Comm c, const std::string& region) {
    enter(enter_time, region);
    send_event(enter_time, dest, tag, bytes, c);
    return leave(leave_time);
}

RankBuilder& RankBuilder::recv(Ticks enter_time, Ticks leave_time, int source, std::uint32_t tag,
                               std::uint64_t bytes, Comm c) {
    enter(enter_time, "MPI_Recv");
    recv_event(leave_time, source, tag, bytes, c);
    return leave(leave_time);
}

RankBuilder& RankBuilder::sendrecv(Ticks enter_time, Ticks leave_time, int dest,
                                   std::uint32_t send_tag, std::uint64_t send_bytes, int source,
                                   std::uint32_t recv_tag, std::uint64_t recv_bytes, Comm c) {
    enter(enter_time, "MPI_Sendrecv");
    send_event(enter_time, dest, send_tag, send_bytes, c);
    recv_event(leave_time, source, recv_tag, recv_bytes, c);
    return leave(leave_time);
}

RequestId RankBuilder::isend(Ticks enter_time, Ticks leave_time, int dest, std::uint32_t tag,
                             std::uint64_t bytes, Comm c, const std::string& region) {
    enter(enter_time, region);
    const RequestId id = isend_event(enter_time, dest, tag, bytes, c);
    leave(leave_time);
    return id;
}

RequestId RankBuilder::irecv(Ticks enter_time, Ticks leave_time, int source, std::uint32_t tag,
                             std::uint64_t bytes, Comm c) {
    enter(enter_time, "MPI_Irecv");
    const event::Envelope envelope{peer_rank(c, source), c.id, tag, bytes};
    const RequestId id = irecv_request_event(enter_time);
    pending_.back().has_envelope = true;
    pending_.back().envelope = envelope;
    leave(leave_time);
    return id;
}

void RankBuilder::complete(Ticks t, RequestId request) {
    const auto it = std::ranges::find(pending_, request, &PendingRequest::id);
    if (it == pending_.end()) fail("request " + std::to_string(request) + " is not pending");
    if (it->io) {
        require_open_region("IO_OPERATION_COMPLETE");
        const event::IoOperationComplete complete = *it->io;
        pending_.erase(it);
        push({t, complete});
    } else if (it->is_send) {
        isend_complete_event(t, request);
    } else {
        if (!it->has_envelope)
            fail("receive request " + std::to_string(request) +
                 " has no envelope; complete it with irecv_event()");
        const event::Envelope e = it->envelope;
        require_open_region("MPI_IRECV");
        pending_.erase(it);
        push({t, event::MpiIrecv{e, request}});
    }
}

RankBuilder& RankBuilder::wait(Ticks enter_time, Ticks leave_time, RequestId request) {
    return completion_call(enter_time, leave_time, {request}, "MPI_Wait");
}

RankBuilder& RankBuilder::waitall(Ticks enter_time, Ticks leave_time,
                                  const std::vector<RequestId>& requests) {
    return completion_call(enter_time, leave_time, requests, "MPI_Waitall");
}

RankBuilder& RankBuilder::completion_call(Ticks enter_time, Ticks leave_time,
                                          const std::vector<RequestId>& requests,
                                          const std::string& region) {
    enter(enter_time, region);
    for (RequestId r : requests) complete(leave_time, r);
    return leave(leave_time);
}

RankBuilder& RankBuilder::test(Ticks enter_time, Ticks leave_time, RequestId request,
                               bool completed) {
    enter(enter_time, "MPI_Test");
    if (completed)
        complete(leave_time, request);
    else
        request_test_event(leave_time, request);
    return leave(leave_time);
}

// ---------------------------------------------------------------------------
// RankBuilder: collectives

RankBuilder& RankBuilder::collective(Ticks enter_time, Ticks leave_time,
                                     const std::string& region, Comm c, int root,
                                     std::uint64_t sent, std::uint64_t received) {
    const auto op = mpi_collective_op(region);
    if (!op) fail("\"" + region + "\" is no blocking MPI collective");
    if (is_rooted(*op) != (root != -1))
        fail(region + (is_rooted(*op) ? " needs a root" : " has no root (pass -1)"));
    enter(enter_time, region);
    collective_begin_event(enter_time);
    collective_end_event(leave_time, *op, c, root, sent, received);
    return leave(leave_time);
}

RankBuilder& RankBuilder::rooted(Ticks enter_time, Ticks leave_time, const std::string& region,
                                 int root, std::uint64_t bytes, Comm c, bool root_sends) {
    const std::uint64_t n = static_cast<std::uint64_t>(comms_->size(c));
    const bool at_root = static_cast<int>(peer_rank(c, root)) == comms_->rank_of(c, rank_);
    // One block travels between the root and every rank, the root included;
    // the other ranks handle their own block only.
    const std::uint64_t at_root_side = at_root ? n * bytes : 0;
    const std::uint64_t sent = root_sends ? at_root_side : bytes;
    const std::uint64_t received = root_sends ? bytes : at_root_side;
    return collective(enter_time, leave_time, region, c, root, sent, received);
}

RankBuilder& RankBuilder::symmetric(Ticks enter_time, Ticks leave_time, const std::string& region,
                                    std::uint64_t bytes, Comm c) {
    const std::uint64_t total = static_cast<std::uint64_t>(comms_->size(c)) * bytes;
    return collective(enter_time, leave_time, region, c, -1, total, total);
}

RankBuilder& RankBuilder::barrier(Ticks enter_time, Ticks leave_time, Comm c) {
    return collective(enter_time, leave_time, "MPI_Barrier", c, -1, 0, 0);
}
RankBuilder& RankBuilder::bcast(Ticks enter_time, Ticks leave_time, int root,
                                std::uint64_t bytes, Comm c) {
    return rooted(enter_time, leave_time, "MPI_Bcast", root, bytes, c, true);
}
RankBuilder& RankBuilder::scatter(Ticks enter_time, Ticks leave_time, int root,
                                  std::uint64_t bytes, Comm c) {
    return rooted(enter_time, leave_time, "MPI_Scatter", root, bytes, c, true);
}
RankBuilder& RankBuilder::reduce(Ticks enter_time, Ticks leave_time, int root,
                                 std::uint64_t bytes, Comm c) {
    return rooted(enter_time, leave_time, "MPI_Reduce", root, bytes, c, false);
}
RankBuilder& RankBuilder::gather(Ticks enter_time, Ticks leave_time, int root,
                                 std::uint64_t bytes, Comm c) {
    return rooted(enter_time, leave_time, "MPI_Gather", root, bytes, c, false);
}
RankBuilder& RankBuilder::allreduce(Ticks enter_time, Ticks leave_time, std::uint64_t bytes,
                                    Comm c) {
    return symmetric(enter_time, leave_time, "MPI_Allreduce", bytes, c);
}
RankBuilder& RankBuilder::allgather(Ticks enter_time, Ticks leave_time, std::uint64_t bytes,
                                    Comm c) {
    return symmetric(enter_time, leave_time, "MPI_Allgather", bytes, c);
}
RankBuilder& RankBuilder::alltoall(Ticks enter_time, Ticks leave_time, std::uint64_t bytes,
                                   Comm c) {
    return symmetric(enter_time, leave_time, "MPI_Alltoall", bytes, c);
}
RankBuilder& RankBuilder::reduce_scatter_block(Ticks enter_time, Ticks leave_time,
                                               std::uint64_t bytes, Comm c) {
    return symmetric(enter_time, leave_time, "MPI_Reduce_scatter_block", bytes, c);
}

RankBuilder& RankBuilder::scan(Ticks enter_time, Ticks leave_time, std::uint64_t bytes, Comm c) {
    // Rank r's block goes to ranks r..N-1; it receives those of ranks 0..r.
    const auto n = static_cast<std::uint64_t>(comms_->size(c));
    const auto r = static_cast<std::uint64_t>(comms_->rank_of(c, rank_));
    return collective(enter_time, leave_time, "MPI_Scan", c, -1, (n - r) * bytes,
                      (r + 1) * bytes);
}

RankBuilder& RankBuilder::exscan(Ticks enter_time, Ticks leave_time, std::uint64_t bytes,
                                 Comm c) {
    // As scan, without the rank's own block.
    const auto n = static_cast<std::uint64_t>(comms_->size(c));
    const auto r = static_cast<std::uint64_t>(comms_->rank_of(c, rank_));
    return collective(enter_time, leave_time, "MPI_Exscan", c, -1, (n - r - 1) * bytes,
                      r * bytes);
}

// ---------------------------------------------------------------------------
// RankBuilder: single events

RankBuilder& RankBuilder::send_event(Ticks t, int dest, std::uint32_t tag, std::uint64_t bytes,
                                     Comm c) {
    require_open_region("MPI_SEND");
    return push({t, event::MpiSend{{peer_rank(c, dest), c.id, tag, bytes}}});
}

RankBuilder& RankBuilder::recv_event(Ticks t, int source, std::uint32_t tag,
                                     std::uint64_t bytes, Comm c) {
    require_open_region("MPI_RECV");
    return push({t, event::MpiRecv{{peer_rank(c, source), c.id, tag, bytes}}});
}

RequestId RankBuilder::isend_event(Ticks t, int dest, std::uint32_t tag, std::uint64_t bytes,
                                   Comm c) {
    require_open_region("MPI_ISEND");
    const event::Envelope envelope{peer_rank(c, dest), c.id, tag, bytes};
    advance_to(t);
    const RequestId id = new_request();
    pending_.back().is_send = true;
    events_.push_back({t, event::MpiIsend{envelope, id}});
    return id;
}

template <typename Record>
RequestId RankBuilder::request_record(Ticks t, const char* what) {
    require_open_region(what);
    advance_to(t);
    const RequestId id = new_request();
    events_.push_back({t, Record{id}});
    return id;
}

RequestId RankBuilder::irecv_request_event(Ticks t) {
    return request_record<event::MpiIrecvRequest>(t, "MPI_IRECV_REQUEST");
}

RankBuilder& RankBuilder::isend_complete_event(Ticks t, RequestId request) {
    require_open_region("MPI_ISEND_COMPLETE");
    const auto it = std::ranges::find(pending_, request, &PendingRequest::id);
    if (it == pending_.end() || !it->is_send)
        fail("request " + std::to_string(request) + " is no pending send request");
    pending_.erase(it);
    return push({t, event::MpiIsendComplete{request}});
}

RankBuilder& RankBuilder::irecv_event(Ticks t, RequestId request, int source, std::uint32_t tag,
                                      std::uint64_t bytes, Comm c) {
    require_open_region("MPI_IRECV");
    const auto it = std::ranges::find(pending_, request, &PendingRequest::id);
    if (it == pending_.end() || it->is_send)
        fail("request " + std::to_string(request) + " is no pending receive request");
    const event::Envelope envelope{peer_rank(c, source), c.id, tag, bytes};
    pending_.erase(it);
    return push({t, event::MpiIrecv{envelope, request}});
}

RankBuilder& RankBuilder::isend_complete_event_raw_request(Ticks t, RequestId request) {
    require_open_region("MPI_ISEND_COMPLETE");
    return push({t, event::MpiIsendComplete{request}});
}

RankBuilder& RankBuilder::irecv_event_raw_request(Ticks t, RequestId request, int source, std::uint32_t tag,
                                                  std::uint64_t bytes, Comm c) {
    require_open_region("MPI_IRECV");
    return push({t, event::MpiIrecv{event::Envelope{peer_rank(c, source), c.id, tag, bytes}, request}});
}

RankBuilder& RankBuilder::request_test_event(Ticks t, RequestId request) {
    require_open_region("MPI_REQUEST_TEST");
    if (std::ranges::find(pending_, request, &PendingRequest::id) == pending_.end())
        fail("request " + std::to_string(request) + " is not pending");
    return push({t, event::MpiRequestTest{request}});
}

RankBuilder& RankBuilder::request_cancelled_event(Ticks t, RequestId request) {
    require_open_region("MPI_REQUEST_CANCELLED");
    const auto it = std::ranges::find(pending_, request, &PendingRequest::id);
    if (it == pending_.end()) fail("request " + std::to_string(request) + " is not pending");
    pending_.erase(it);
    return push({t, event::MpiRequestCancelled{request}});
}

RankBuilder& RankBuilder::collective_begin_event(Ticks t) {
    require_open_region("MPI_COLLECTIVE_BEGIN");
    return push({t, event::MpiCollectiveBegin{}});
}

RankBuilder& RankBuilder::receive_sources(std::vector<int> comm_ranks) {
    if (next_sources_) fail("receive sources given twice for one collective operation");
    next_sources_ = NextSources{std::move(comm_ranks), false};
    return *this;
}

RankBuilder& RankBuilder::receive_sources_raw_world_ranks(std::vector<int> world_ranks) {
    if (next_sources_) fail("receive sources given twice for one collective operation");
    next_sources_ = NextSources{std::move(world_ranks), true};
    return *this;
}

std::optional<std::vector<int>> RankBuilder::take_sources(Comm c) {
    if (!next_sources_) return std::nullopt;
    NextSources given = std::move(*next_sources_);
    next_sources_.reset();
    if (given.world) return std::move(given.ranks);
    std::vector<int> world;
    for (const int rank : given.ranks) {
        const std::uint32_t r = peer_rank(c, rank);
        world.push_back(c == kSelf ? rank_ : comms_->at(c).world_ranks[r]);
    }
    return world;
}

RankBuilder& RankBuilder::collective_end_event(Ticks t, OTF2_CollectiveOp op, Comm c, int root,
                                               std::uint64_t sent, std::uint64_t received) {
    require_open_region("MPI_COLLECTIVE_END");
    const std::uint32_t root_in_c = root_rank(c, root);
    return push({t, event::MpiCollectiveEnd{op, c.id, root_in_c, sent, received, take_sources(c)}});
}

RankBuilder& RankBuilder::collective_end_event_raw_root(Ticks t, OTF2_CollectiveOp op, Comm c, std::uint32_t root,
                                                        std::uint64_t sent, std::uint64_t received) {
    require_open_region("MPI_COLLECTIVE_END");
    comms_->rank_of(c, rank_);  // this rank must be a member
    return push({t, event::MpiCollectiveEnd{op, c.id, root, sent, received, take_sources(c)}});
}

RequestId RankBuilder::nonblocking_collective_request_event(Ticks t) {
    return request_record<event::NonBlockingCollectiveRequest>(t, "NON_BLOCKING_COLLECTIVE_REQUEST");
}

RankBuilder& RankBuilder::nonblocking_collective_complete_event(Ticks t, RequestId request, OTF2_CollectiveOp op,
                                                                Comm c, int root, std::uint64_t sent,
                                                                std::uint64_t received) {
    require_open_region("NON_BLOCKING_COLLECTIVE_COMPLETE");
    const std::uint32_t root_in_c = root_rank(c, root);
    return push({t, event::NonBlockingCollectiveComplete{{op, c.id, root_in_c, sent, received, take_sources(c)},
                                                         request}});
}

// ---------------------------------------------------------------------------
// RankBuilder: MPI-IO

RequestId RankBuilder::begin_file_io(Ticks t, IoHandle file, bool read, bool collective, bool blocking,
                                     std::uint64_t bytes) {
    const RequestId id = new_request();
    const auto flags = static_cast<OTF2_IoOperationFlag>((blocking ? 0 : OTF2_IO_OPERATION_FLAG_NON_BLOCKING) |
                                                         (collective ? OTF2_IO_OPERATION_FLAG_COLLECTIVE : 0));
    io_operation_begin_event(t, file, read ? OTF2_IO_OPERATION_MODE_READ : OTF2_IO_OPERATION_MODE_WRITE, flags,
                             bytes, id);
    pending_.back().io = event::IoOperationComplete{file.id, bytes, id};
    return id;
}

RankBuilder& RankBuilder::file_io(Ticks enter_time, Ticks leave_time, const std::string& region, IoHandle file,
                                  bool read, bool collective, std::uint64_t bytes) {
    enter(enter_time, region);
    complete(leave_time, begin_file_io(enter_time, file, read, collective, true, bytes));
    return leave(leave_time);
}

RequestId RankBuilder::file_io_start(Ticks enter_time, Ticks leave_time, const std::string& region, IoHandle file,
                                     bool read, bool collective, std::uint64_t bytes) {
    enter(enter_time, region);
    const RequestId id = begin_file_io(enter_time, file, read, collective, false, bytes);
    push({leave_time, event::IoOperationIssued{file.id, id}});
    leave(leave_time);
    return id;
}

RankBuilder& RankBuilder::file_io_end(Ticks enter_time, Ticks leave_time, const std::string& region,
                                      RequestId request) {
    return completion_call(enter_time, leave_time, {request}, region);
}

RankBuilder& RankBuilder::io_operation_begin_event(Ticks t, IoHandle file, OTF2_IoOperationMode mode,
                                                   OTF2_IoOperationFlag flags, std::uint64_t bytes,
                                                   std::uint64_t matching_id) {
    require_open_region("IO_OPERATION_BEGIN");
    return push({t, event::IoOperationBegin{file.id, mode, flags, bytes, matching_id}});
}

RankBuilder& RankBuilder::io_operation_complete_event(Ticks t, IoHandle file, std::uint64_t bytes,
                                                      std::uint64_t matching_id) {
    // Unchecked, even outside any region: a stream the loader must survive.
    return push({t, event::IoOperationComplete{file.id, bytes, matching_id}});
}

// ---------------------------------------------------------------------------
// RankBuilder: MPI RMA

RankBuilder& RankBuilder::window_call(Ticks enter_time, Ticks leave_time, const std::string& region, RmaWindow w,
                                      std::vector<EventPayload> at_enter, std::vector<EventPayload> at_leave) {
    comms_->rank_of(w.comm, rank_);  // this rank must be a member
    enter(enter_time, region);
    for (EventPayload& e : at_enter) push({enter_time, std::move(e)});
    for (EventPayload& e : at_leave) push({leave_time, std::move(e)});
    return leave(leave_time);
}

std::vector<EventPayload> RankBuilder::complete_transfers(RmaWindow w, std::optional<std::uint32_t> target) {
    using At = event::RmaOpComplete::At;
    std::vector<EventPayload> completions;
    std::erase_if(pending_transfers_, [&](const event::RmaTransfer& t) {
        if (t.window != w.id || (target && t.remote != *target)) return false;
        const bool at_origin_before = std::erase(completed_at_origin_, t.matching_id) > 0;
        completions.emplace_back(
            event::RmaOpComplete{t.window, t.matching_id, at_origin_before ? At::Target : At::BothEnds});
        return true;
    });
    return completions;
}

RankBuilder& RankBuilder::win_create(Ticks enter_time, Ticks leave_time, RmaWindow w, const std::string& region) {
    return window_call(enter_time, leave_time, region, w, {event::RmaCollectiveBegin{}},
                       {event::RmaWinCreate{w.id},
                        event::RmaCollectiveEnd{OTF2_COLLECTIVE_OP_CREATE_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE, w.id}});
}

RankBuilder& RankBuilder::win_free(Ticks enter_time, Ticks leave_time, RmaWindow w) {
    return window_call(enter_time, leave_time, "MPI_Win_free", w, {event::RmaCollectiveBegin{}},
                       {event::RmaCollectiveEnd{OTF2_COLLECTIVE_OP_DESTROY_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE, w.id},
                        event::RmaWinDestroy{w.id}});
}

RankBuilder& RankBuilder::win_fence(Ticks enter_time, Ticks leave_time, RmaWindow w) {
    std::vector<EventPayload> at_leave = complete_transfers(w, std::nullopt);
    at_leave.emplace_back(event::RmaCollectiveEnd{
        OTF2_COLLECTIVE_OP_BARRIER,
        static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY), w.id});
    return window_call(enter_time, leave_time, "MPI_Win_fence", w, {event::RmaCollectiveBegin{}},
                       std::move(at_leave));
}

RankBuilder& RankBuilder::put(Ticks enter_time, Ticks leave_time, RmaWindow w, int target, std::uint64_t bytes,
                              const std::string& region) {
    const event::RmaTransfer transfer{true, w.id, peer_rank(w.comm, target), bytes, next_request_++};
    pending_transfers_.push_back(transfer);
    return window_call(enter_time, leave_time, region, w, {transfer}, {});
}

RankBuilder& RankBuilder::get(Ticks enter_time, Ticks leave_time, RmaWindow w, int target, std::uint64_t bytes) {
    const event::RmaTransfer transfer{false, w.id, peer_rank(w.comm, target), bytes, next_request_++};
    pending_transfers_.push_back(transfer);
    return window_call(enter_time, leave_time, "MPI_Get", w, {transfer}, {});
}

std::vector<int> RankBuilder::world_ranks_of(RmaWindow w, const std::vector<int>& partners) const {
    std::vector<int> world;
    for (const int partner : partners) world.push_back(comms_->at(w.comm).world_ranks.at(peer_rank(w.comm, partner)));
    return world;
}

RankBuilder& RankBuilder::group_sync(Ticks enter_time, Ticks leave_time, const std::string& region, RmaWindow w,
                                     const std::vector<int>& partners, bool completes) {
    std::vector<EventPayload> at_leave;
    if (completes) at_leave = complete_transfers(w, std::nullopt);
    at_leave.emplace_back(event::RmaGroupSync{
        static_cast<OTF2_RmaSyncLevel>(OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY), w.id,
        world_ranks_of(w, partners)});
    return window_call(enter_time, leave_time, region, w, {}, std::move(at_leave));
}

RankBuilder& RankBuilder::win_post(Ticks enter_time, Ticks leave_time, RmaWindow w, const std::vector<int>& partners) {
    return group_sync(enter_time, leave_time, "MPI_Win_post", w, partners, false);
}

RankBuilder& RankBuilder::win_start(Ticks enter_time, Ticks leave_time, RmaWindow w,
                                    const std::vector<int>& partners) {
    return group_sync(enter_time, leave_time, "MPI_Win_start", w, partners, false);
}

RankBuilder& RankBuilder::win_complete(Ticks enter_time, Ticks leave_time, RmaWindow w,
                                       const std::vector<int>& partners) {
    return group_sync(enter_time, leave_time, "MPI_Win_complete", w, partners, true);
}

RankBuilder& RankBuilder::win_wait(Ticks enter_time, Ticks leave_time, RmaWindow w, const std::vector<int>& partners) {
    return group_sync(enter_time, leave_time, "MPI_Win_wait", w, partners, false);
}

RankBuilder& RankBuilder::win_lock(Ticks enter_time, Ticks leave_time, RmaWindow w, int target, bool exclusive) {
    const std::uint32_t remote = peer_rank(w.comm, target);
    return window_call(enter_time, leave_time, "MPI_Win_lock", w,
                       {event::RmaLock{event::RmaLock::Action::Request, w.id, remote, remote, exclusive}}, {});
}

RankBuilder& RankBuilder::win_unlock(Ticks enter_time, Ticks leave_time, RmaWindow w, int target) {
    const std::uint32_t remote = peer_rank(w.comm, target);
    std::vector<EventPayload> at_leave = complete_transfers(w, remote);
    at_leave.emplace_back(event::RmaLock{event::RmaLock::Action::Release, w.id, remote, remote, false});
    return window_call(enter_time, leave_time, "MPI_Win_unlock", w, {}, std::move(at_leave));
}

RankBuilder& RankBuilder::win_flush(Ticks enter_time, Ticks leave_time, RmaWindow w, int target) {
    return window_call(enter_time, leave_time, "MPI_Win_flush", w, {},
                       complete_transfers(w, peer_rank(w.comm, target)));
}

RankBuilder& RankBuilder::win_flush_local(Ticks enter_time, Ticks leave_time, RmaWindow w, int target) {
    const std::uint32_t remote = peer_rank(w.comm, target);
    std::vector<EventPayload> completions;
    for (const event::RmaTransfer& t : pending_transfers_) {
        if (t.window != w.id || t.remote != remote || std::ranges::count(completed_at_origin_, t.matching_id) > 0)
            continue;
        completed_at_origin_.push_back(t.matching_id);
        completions.emplace_back(event::RmaOpComplete{t.window, t.matching_id, event::RmaOpComplete::At::Origin});
    }
    return window_call(enter_time, leave_time, "MPI_Win_flush_local", w, {}, std::move(completions));
}

RankBuilder& RankBuilder::clock_offset(Ticks time, std::int64_t offset, double stddev) {
    if (time < 0) fail("negative clock offset time " + std::to_string(time));
    if (!clock_offsets_.empty() && time < clock_offsets_.back().time)
        fail("clock offset times go backwards: " + std::to_string(time) + " after " +
             std::to_string(clock_offsets_.back().time));
    clock_offsets_.push_back({time, offset, stddev});
    return *this;
}

// ---------------------------------------------------------------------------
// TraceBuilder

TraceBuilder::TraceBuilder(int ranks) {
    if (ranks < 1) fail_builder("a trace needs at least one rank, not " + std::to_string(ranks));
    comms_ = std::make_unique<CommTable>(ranks);
    ranks_.reserve(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) ranks_.emplace_back(r, *comms_);
    node_of_rank_.assign(static_cast<std::size_t>(ranks), "node0");
}

TraceBuilder::~TraceBuilder() = default;

void TraceBuilder::check_rank(int r) const {
    if (r < 0 || r >= size())
        fail_builder("rank " + std::to_string(r) + " is outside 0.." + std::to_string(size() - 1));
}

Comm TraceBuilder::communicator(std::vector<int> world_ranks, Comm parent, std::string name) {
    return comms_->add(std::move(world_ranks), parent, std::move(name));
}

Comm TraceBuilder::intercommunicator(std::vector<int> first, std::vector<int> second, std::string name) {
    return comms_->add_inter(std::move(first), std::move(second), std::move(name));
}

IoHandle TraceBuilder::file(std::string file_name, std::optional<Comm> comm) {
    if (file_name.empty()) fail_builder("a file needs a name");
    if (comm) comms_->at(*comm);  // must exist
    files_.push_back({std::move(file_name), comm});
    return IoHandle{static_cast<std::uint32_t>(files_.size() - 1)};
}

RmaWindow TraceBuilder::window(Comm comm, std::string name) {
    comms_->at(comm);  // must exist
    windows_.push_back({std::move(name), comm});
    return RmaWindow{static_cast<std::uint32_t>(windows_.size() - 1), comm};
}

RankBuilder& TraceBuilder::rank(int r) {
    check_rank(r);
    return ranks_[static_cast<std::size_t>(r)];
}

const RankBuilder& TraceBuilder::rank(int r) const {
    check_rank(r);
    return ranks_[static_cast<std::size_t>(r)];
}

void TraceBuilder::set_threads(int threads) {
    if (threads < 1) fail_builder("a rank needs at least one thread, not " + std::to_string(threads));
    threads_ = threads;
    workers_.clear();
    workers_.reserve(static_cast<std::size_t>(size() * (threads - 1)));
    for (int r = 0; r < size(); ++r)
        for (int t = 1; t < threads; ++t) workers_.emplace_back(r, *comms_);
}

RankBuilder& TraceBuilder::thread(int r, int t) {
    return const_cast<RankBuilder&>(std::as_const(*this).thread(r, t));
}

const RankBuilder& TraceBuilder::thread(int r, int t) const {
    check_rank(r);
    if (t < 0 || t >= threads_)
        fail_builder("thread " + std::to_string(t) + " is outside 0.." + std::to_string(threads_ - 1));
    if (t == 0) return ranks_[static_cast<std::size_t>(r)];
    return workers_[static_cast<std::size_t>(r * (threads_ - 1) + t - 1)];
}

void TraceBuilder::set_machine_name(std::string name) {
    if (name.empty()) fail_builder("the machine needs a name");
    machine_ = std::move(name);
}

void TraceBuilder::set_node_of_rank(int r, std::string node_name) {
    check_rank(r);
    if (node_name.empty()) fail_builder("a node needs a name");
    node_of_rank_[static_cast<std::size_t>(r)] = std::move(node_name);
}

const std::string& TraceBuilder::node_of_rank(int r) const {
    check_rank(r);
    return node_of_rank_[static_cast<std::size_t>(r)];
}

void TraceBuilder::set_ticks_per_second(std::uint64_t ticks_per_second) {
    if (ticks_per_second == 0) fail_builder("the clock needs a positive resolution");
    ticks_per_second_ = ticks_per_second;
}

void TraceBuilder::set_global_offset(std::uint64_t offset) { global_offset_ = offset; }

void TraceBuilder::set_program_name(std::string name) { program_name_ = std::move(name); }

ClockProperties TraceBuilder::clock() const {
    bool any = false;
    Ticks first = 0;
    Ticks last = 0;
    for (const RankBuilder& r : ranks_) {
        if (r.events().empty()) continue;
        const Ticks f = r.events().front().time;
        const Ticks l = r.events().back().time;
        first = any ? std::min(first, f) : f;
        last = any ? std::max(last, l) : l;
        any = true;
    }
    return {ticks_per_second_, global_offset_, static_cast<std::uint64_t>(last - first)};
}

void TraceBuilder::write(const std::filesystem::path& dir) const {
    for (const RankBuilder& r : ranks_) {
        r.check_complete();
        for (int t = 1; t < threads_; ++t) thread(r.world_rank(), t).check_complete();
        if (!r.events().empty() &&
            static_cast<std::uint64_t>(r.events().front().time) < global_offset_)
            fail_builder("rank " + std::to_string(r.world_rank()) + ": event at " +
                         std::to_string(r.events().front().time) +
                         " precedes the global offset " + std::to_string(global_offset_));
    }
    write_otf2_archive(*this, dir);
}

}  // namespace hindsight::testing
