#include "trace/event_store_builder.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <utility>

#include "common/error.hpp"
#include "trace/otf2_enums.hpp"

namespace hindsight::trace {
namespace {

bool is_mpi_call(const Region& r, std::string_view name) {
    return r.paradigm == Paradigm::Mpi && (r.canonical_name == name || r.name == name);
}

// The calls that receive a message in the call itself.
bool is_blocking_receive(const Region& r) {
    return is_mpi_call(r, "MPI_Recv") || is_mpi_call(r, "MPI_Mrecv") || is_mpi_call(r, "MPI_Sendrecv") ||
           is_mpi_call(r, "MPI_Sendrecv_replace");
}

}  // namespace

EventStoreBuilder::EventStoreBuilder(const TraceDefinitions& defs, ClockCorrection clock, LocalTrace& trace)
    : defs_(defs),
      clock_(clock),
      trace_(trace),
      world_(defs.world_comm()),
      slots_(static_cast<std::size_t>(defs.definitions.mpi_rank_count())),
      jitter_tolerance_(ClockCorrection::jitter_tolerance(defs.definitions.clock)) {
    const Definitions& d = defs.definitions;
    layouts_.reserve(d.communicators.size());
    for (CommId c = 0; c < d.communicators.size(); ++c) {
        layouts_.push_back(comm_layout(d, c));
        member_of_.push_back(layouts_.back().valid && layouts_.back().rank_of(trace.rank) >= 0);
    }
    special_.reserve(d.regions.size());
    for (const Region& r : d.regions) {
        special_.push_back(is_mpi_call(r, "MPI_Init") || is_mpi_call(r, "MPI_Init_thread") ? SpecialCall::Init
                           : is_mpi_call(r, "MPI_Finalize")                               ? SpecialCall::Finalize
                           : is_mpi_call(r, "MPI_Probe") || is_mpi_call(r, "MPI_Mprobe")   ? SpecialCall::BlockingProbe
                           : is_mpi_call(r, "MPI_Iprobe") || is_mpi_call(r, "MPI_Improbe") ? SpecialCall::PollingProbe
                           : is_blocking_receive(r)                                       ? SpecialCall::Receive
                           : is_mpi_call(r, "MPI_Irecv") || is_mpi_call(r, "MPI_Imrecv")  ? SpecialCall::PostReceive
                                                                                          : SpecialCall::None);
    }
}

void EventStoreBuilder::fail(const std::string& problem) const {
    throw Error(trace_.anchor_path, "rank " + std::to_string(trace_.rank) + ": " + problem);
}

void EventStoreBuilder::fail_timestamp(std::uint64_t time, const char* record, std::optional<Ticks> corrected) const {
    fail("the timestamp " + std::to_string(time) + " of record " + record + " (" + where(last_time_) +
         " or later), corrected, " +
         outside_time_span(defs_.definitions.clock, clock_.window(), corrected));
}

void EventStoreBuilder::fail_step_back(std::uint64_t time, const char* record, Ticks corrected) const {
    const Ticks back = last_time_ - corrected;
    std::ostringstream seconds;
    seconds << trace_.seconds(back);
    fail("record " + std::string(record) + " (timestamp " +
         std::to_string(time) + ", " + where(corrected) + ") lies " + seconds.str() + " s (" +
         std::to_string(back) + " ticks) before the record preceding it: the rank's clock went back further than " +
         "clock jitter (" + std::to_string(jitter_tolerance_) + " ticks); the trace is broken");
}

std::string EventStoreBuilder::where(Ticks time) const {
    std::ostringstream text;
    if (!open_.empty()) text << "in '" << defs_.definitions.regions[open_.back().region].name << "' ";
    text << "at " << trace_.seconds(time) << " s";
    return text.str();
}

void EventStoreBuilder::fail_region(OTF2_RegionRef region) const {
    fail("an event refers to undefined region " + std::to_string(region));
}

void EventStoreBuilder::fail_comm(OTF2_CommRef comm, std::optional<std::uint32_t> index) const {
    if (!index) fail("an event refers to undefined communicator " + std::to_string(comm));
    fail("an event uses communicator " + defs_.definitions.comm_display_name(*index) +
         ", which has no usable MPI group");
}

void EventStoreBuilder::fail_event_count() const {
    fail("more than " + std::to_string(kMaxEvents) + " events on one rank, more than the store can index");
}

inline Ticks EventStoreBuilder::corrected(std::uint64_t time, const char* record) {
    const std::optional<Ticks> checked = clock_.correct(time);
    if (!checked || !clock_.window().holds(*checked)) [[unlikely]]
        fail_timestamp(time, record, checked);
    Ticks t = *checked;
    // A stream must not go back in time. Jitter (a step back within the
    // tolerance) is clamped to the previous event and counted among the
    // warnings; a larger step is a broken clock or timestamp, and every
    // wait measured across it would be wrong.
    if (!any_time_) [[unlikely]] {
        any_time_ = true;
        stats.first_time = t;
    } else if (t < last_time_) [[unlikely]] {
        if (last_time_ - t > jitter_tolerance_) fail_step_back(time, record, t);
        t = last_time_;
        ++stats.timestamp_fixups;
    }
    last_time_ = t;
    return t;
}

inline RegionId EventStoreBuilder::region_index(OTF2_RegionRef region) const {
    const auto index = defs_.region_ids.find(region);
    if (!index) [[unlikely]]
        fail_region(region);
    return *index;
}

inline CommId EventStoreBuilder::comm_index(OTF2_CommRef comm) const {
    const auto index = defs_.comm_ids.find(comm);
    if (!index || !layouts_[*index].valid) [[unlikely]]
        fail_comm(comm, index);
    return *index;
}

inline EventIndex EventStoreBuilder::append(const Event& event) {
    if (trace_.events.size() >= kMaxEvents) [[unlikely]]
        fail_event_count();
    trace_.events.push_back(event);
    return static_cast<EventIndex>(trace_.events.size() - 1);
}

inline EventIndex EventStoreBuilder::push(Ticks time, EventKind kind, std::uint32_t ref) {
    // Communication events belong to the MPI call around them.
    if (open_.empty()) [[unlikely]]
        fail("a communication event outside any region");
    return append(Event{time, current_path(), ref, kind});
}

inline void EventStoreBuilder::push_enter(Ticks time, RegionId region) {
    const CallPathId parent = current_path();
    ChildPath& cached = child_paths_[(parent * 0x9e3779b1u + region) % child_paths_.size()];
    if (cached.parent != parent || cached.region != region)
        cached = {parent, region, trace_.call_tree.child(parent, region)};
    const EventIndex enter = append(Event{time, cached.child, 0, EventKind::Enter});  // ref: set at the Leave
    open_.push_back({enter, region, cached.child});
}

inline void EventStoreBuilder::push_leave(Ticks time) {
    const EventIndex enter = open_.back().enter;
    const EventIndex leave = push(time, EventKind::Leave, enter);
    trace_.events[enter].ref = leave;
    open_.pop_back();
}

void EventStoreBuilder::drop_collective_begin() {
    unended_collectives_.add(where(collective_begin_));
    collective_begin_ = Collective::kNoBegin;
    collective_begun_ = false;
}

void EventStoreBuilder::collective_begin(std::uint64_t time) {
    const Ticks t = corrected(time, "MPI_COLLECTIVE_BEGIN");
    // Begin and end pair within one call; a begin still waiting for its end
    // lost it.
    if (collective_begun_) drop_collective_begin();
    collective_begin_ = t;
    collective_begin_call_ = open_call();
    collective_begun_ = true;
}

void EventStoreBuilder::enter(std::uint64_t time, OTF2_RegionRef region) {
    push_enter(corrected(time, "ENTER"), region_index(region));
}

void EventStoreBuilder::leave(std::uint64_t time, OTF2_RegionRef region) {
    const Ticks t = corrected(time, "LEAVE");
    const RegionId r = region_index(region);
    if (open_.empty()) [[unlikely]]
        fail("LEAVE of region '" + defs_.definitions.regions[r].name + "' without an ENTER");
    if (open_.back().region != r) [[unlikely]]
        fail("LEAVE of region '" + defs_.definitions.regions[r].name + "' while region '" +
             defs_.definitions.regions[open_.back().region].name + "' is open");
    // A call that ends with its collective begun but not ended: the
    // operation's record is lost, and the call is no collective.
    if (collective_begun_ && collective_begin_call_ == open_call()) [[unlikely]]
        drop_collective_begin();
    // MPI_Init and MPI_Finalize synchronize all ranks; unless the trace
    // recorded that itself, a collective on MPI_COMM_WORLD marks it.
    const SpecialCall kind = special_[r];
    if ((kind == SpecialCall::Init || kind == SpecialCall::Finalize) && world_ != kNoId &&
        last_collective_call_ != open_call())
        push_collective(t, Collective{world_, -1, 0, 0, open_call(),
                                      kind == SpecialCall::Init ? CollectiveOp::Init : CollectiveOp::Finalize});
    if (kind == SpecialCall::BlockingProbe) unclaimed_probe_ = open_call();
    // A receive call took the probed message: as a receive, or as a request
    // posted (which carries the probe to its completion). One that did
    // neither received from MPI_PROC_NULL, as the probe had found: no later
    // receive takes that probe. (From a writer that records no requests, a
    // posting call shows nothing: the receive completing next takes it.)
    if (kind == SpecialCall::Receive || (kind == SpecialCall::PostReceive && any_receive_posted_))
        unclaimed_probe_ = kNoEvent;
    if (kind == SpecialCall::PollingProbe && first_polling_probe_ == kNoEvent) first_polling_probe_ = open_call();
    push_leave(t);
}

void EventStoreBuilder::push_message(Ticks time, EventKind kind, std::uint32_t partner, OTF2_CommRef comm,
                                     std::uint32_t tag, std::uint64_t bytes, bool nonblocking,
                                     EventIndex first_test, EventIndex probe) {
    const CommId c = comm_index(comm);
    // On an intercommunicator the record names a rank of the other group.
    if (layout(c).first_group_size > 0 && member_of_[c]) {
        const int peer = layout(c).peer_rank(static_cast<int>(partner), layout(c).rank_of(trace_.rank));
        if (peer < 0)
            fail(std::string(kind == EventKind::Send ? "a send to" : "a receive from") + " rank " +
                 std::to_string(partner) + " of the other group of " + defs_.definitions.comm_display_name(c) +
                 ", which has fewer ranks");
        partner = static_cast<std::uint32_t>(peer);
    }
    if (partner >= static_cast<std::uint32_t>(layout(c).size()))
        fail(std::string(kind == EventKind::Send ? "a send to" : "a receive from") + " rank " +
             std::to_string(partner) + " of " + defs_.definitions.comm_display_name(c) + ", which has only " +
             std::to_string(layout(c).size()) + " ranks");
    if (tag > kMaxTag) fail("a message with tag " + std::to_string(tag) + ", beyond the range of MPI tags");
    // A rank communicates only on communicators it belongs to; an event on
    // another one has a damaged communicator id (or mapping table).
    if (!member_of_[c]) [[unlikely]]
        fail(std::string(kind == EventKind::Send ? "a send" : "a receive") + " on " +
             defs_.definitions.comm_display_name(c) + ", of which the rank is no member");
    Message& m = trace_.messages.emplace_back();
    m.comm = c;
    m.partner = static_cast<std::int32_t>(partner);
    m.tag = tag;
    m.nonblocking = nonblocking;
    m.bytes = bytes;
    m.call_enter = open_call();
    const EventIndex event = push(time, kind, static_cast<std::uint32_t>(trace_.messages.size() - 1));
    slots_.add(m, event, kind == EventKind::Send, layout(c).world_rank_of(m.partner, trace_.rank));
    if (kind == EventKind::Recv) note_waiting_calls(first_test, probe);
}

void EventStoreBuilder::note_waiting_calls(EventIndex first_test, EventIndex probe) {
    const auto message = static_cast<std::uint32_t>(trace_.messages.size() - 1);
    const EventIndex polling_probe = std::exchange(first_polling_probe_, kNoEvent);
    // The receive call after a blocking probe takes the message the probe
    // waited for (MPI_Probe then MPI_Recv; MPI_Mprobe then MPI_Mrecv, or
    // MPI_Imrecv whose request carried the probe to here).
    if (probe != kNoEvent) {
        trace_.probed_receives.push_back({message, probe});
        return;
    }
    // Polling for the message: the unsuccessful tests of the receive's
    // request, or the non-blocking probes since the previous receive
    // (MPI_Iprobe then MPI_Recv; MPI_Improbe then MPI_Mrecv or MPI_Imrecv).
    // Polling calls before the last call that took some belong to that
    // call's receives (a loop over MPI_Testany or MPI_Testsome polls for
    // several); receives completed in one call share them.
    const EventIndex call = open_call();
    const auto polls_here = [&](EventIndex first) {
        return first != kNoEvent && first < call &&
               (polls_taken_by_ == kNoEvent || first > polls_taken_by_ || call == polls_taken_by_);
    };
    EventIndex first = polls_here(polling_probe) ? polling_probe : kNoEvent;
    if (polls_here(first_test) && (first == kNoEvent || first_test < first)) first = first_test;
    if (first == kNoEvent) return;
    trace_.polled_receives.push_back({message, first});
    polls_taken_by_ = call;
}

void EventStoreBuilder::reserve_messages(std::size_t messages) {
    trace_.messages.reserve(messages);
    slots_.reserve(messages);
}

void EventStoreBuilder::send(std::uint64_t time, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
                             std::uint64_t bytes) {
    push_message(corrected(time, "MPI_SEND"), EventKind::Send, receiver, comm, tag, bytes, false);
}

void EventStoreBuilder::isend(std::uint64_t time, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
                              std::uint64_t bytes, std::uint64_t request) {
    push_message(corrected(time, "MPI_ISEND"), EventKind::Send, receiver, comm, tag, bytes, true);
    open_send_requests_.insert(request);
}

void EventStoreBuilder::isend_complete(std::uint64_t time, std::uint64_t request) {
    const Ticks t = corrected(time, "MPI_ISEND_COMPLETE");
    // Every MPI_ISEND names its request, so a completion of another one
    // belongs to no send of this rank: a damaged id (or a lost send).
    if (open_send_requests_.erase(request) == 0) [[unlikely]]
        request_ends_.send_completions.push_back({request, t, open_.empty() ? kNoId : open_.back().region});
}

void EventStoreBuilder::recv(std::uint64_t time, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
                             std::uint64_t bytes) {
    push_message(corrected(time, "MPI_RECV"), EventKind::Recv, sender, comm, tag, bytes, false, kNoEvent,
                 std::exchange(unclaimed_probe_, kNoEvent));
}

void EventStoreBuilder::irecv_request(std::uint64_t time, std::uint64_t request) {
    (void)corrected(time, "MPI_IRECV_REQUEST");
    any_receive_posted_ = true;
    // Outside any call the request has no posting call to remember.
    if (open_.empty()) return;
    posted_requests_[request] = {open_call(), kNoEvent, std::exchange(unclaimed_probe_, kNoEvent)};
}

void EventStoreBuilder::request_test(std::uint64_t time, std::uint64_t request) {
    (void)corrected(time, "MPI_REQUEST_TEST");
    if (open_.empty()) return;
    // Send requests, and receive requests never posted, poll for nothing
    // this rank receives.
    const auto posted = posted_requests_.find(request);
    if (posted == posted_requests_.end()) return;
    // A first test before the last call that took polling calls was taken
    // with them: the request's own polling begins anew.
    EventIndex& first = posted->second.first_test;
    if (first == kNoEvent || (polls_taken_by_ != kNoEvent && first <= polls_taken_by_)) first = open_call();
}

void EventStoreBuilder::irecv(std::uint64_t time, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
                              std::uint64_t bytes, std::uint64_t request) {
    const Ticks t = corrected(time, "MPI_IRECV");
    const auto posted = posted_requests_.find(request);
    const bool known = posted != posted_requests_.end();
    // A writer that records no requests leaves the probe to the receive
    // that completes next.
    push_message(t, EventKind::Recv, sender, comm, tag, bytes, true, known ? posted->second.first_test : kNoEvent,
                 known ? posted->second.probe : std::exchange(unclaimed_probe_, kNoEvent));
    // A receive whose request this location never showed posted keeps no
    // posting call: another thread of the rank may have posted it, or,
    // from a writer that records no requests at all, nobody did; settling
    // the rank's request ends tells (request_ends.hpp).
    if (!known) [[unlikely]] {
        request_ends_.receive_completions.push_back({request, t, open_.empty() ? kNoId : open_.back().region});
        return;
    }
    trace_.posted_receives.push_back({static_cast<std::uint32_t>(trace_.messages.size() - 1), posted->second.posted});
    posted_requests_.erase(posted);
}

void EventStoreBuilder::request_cancelled(std::uint64_t time, std::uint64_t request) {
    (void)corrected(time, "MPI_REQUEST_CANCELLED");
    // Either kind of request may be cancelled.
    posted_requests_.erase(request);
    open_send_requests_.erase(request);
}

Collective EventStoreBuilder::collective(OTF2_CollectiveOp op, OTF2_CommRef otf2_comm, std::uint32_t root,
                                         std::uint64_t sent, std::uint64_t received) const {
    const CommId comm = comm_index(otf2_comm);
    // On an intercommunicator the groups name the root differently (the
    // root itself, its group, a rank of the other group): like Hindsight's
    // collector, every member records it without one.
    if (layout(comm).first_group_size > 0) root = OTF2_UNDEFINED_UINT32;
    // Checked as read, unsigned: a root of 2^31 or more would turn negative
    // as an int and pass for "no root".
    if (root != OTF2_UNDEFINED_UINT32 && root >= static_cast<std::uint32_t>(layout(comm).size()))
        fail("a collective operation on " + defs_.definitions.comm_display_name(comm) + " with root " +
             std::to_string(root) + " outside the communicator");
    const int root_rank = root == OTF2_UNDEFINED_UINT32 ? -1 : static_cast<int>(root);
    if (layout(comm).rank_of(trace_.rank) < 0)
        fail("a collective operation on " + defs_.definitions.comm_display_name(comm) +
             ", of which the rank is no member");
    return Collective{comm, root_rank, sent, received, open_call(), collective_op_from_otf2(op)};
}

void EventStoreBuilder::push_collective(Ticks time, const Collective& collective) {
    trace_.collectives.push_back(collective);
    push(time, EventKind::CollectiveEnd, static_cast<std::uint32_t>(trace_.collectives.size() - 1));
    last_collective_call_ = open_call();
}

std::uint32_t EventStoreBuilder::sources_of(CommId comm, std::optional<OTF2_GroupRef> group) {
    if (!group) return Collective::kNoSources;
    const auto index = defs_.group_ids.find(*group);
    if (!index) return Collective::kNoSources;
    const Group& g = defs_.definitions.groups[*index];
    if (g.type != GroupType::CommGroup) return Collective::kNoSources;
    return source_lists_.add(trace_.source_lists, layout(comm), trace_.rank, g.members);
}

void EventStoreBuilder::collective_end(std::uint64_t time, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                       std::uint32_t root, std::uint64_t sent, std::uint64_t received,
                                       std::optional<OTF2_GroupRef> sources) {
    const Ticks t = corrected(time, "MPI_COLLECTIVE_END");
    // A begin in another call than this end's lost its own end.
    if (collective_begun_ && collective_begin_call_ != open_call()) [[unlikely]]
        drop_collective_begin();
    Collective c = collective(op, comm, root, sent, received);
    c.begin = std::exchange(collective_begin_, Collective::kNoBegin);
    c.sources = sources_of(c.comm, sources);
    collective_begun_ = false;
    push_collective(t, c);
}

void EventStoreBuilder::nonblocking_collective_request(std::uint64_t time, std::uint64_t request) {
    const Ticks t = corrected(time, "NON_BLOCKING_COLLECTIVE_REQUEST");
    // Outside any call the request has no starting call to remember.
    if (open_.empty()) return;
    started_collectives_[request] = {t, open_call()};
}

void EventStoreBuilder::nonblocking_collective_complete(std::uint64_t time, OTF2_CollectiveOp op,
                                                        OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent,
                                                        std::uint64_t received, std::uint64_t request,
                                                        std::optional<OTF2_GroupRef> sources) {
    const Ticks t = corrected(time, "NON_BLOCKING_COLLECTIVE_COMPLETE");
    if (open_.empty()) fail("a communication event outside any region");
    Collective c = collective(op, comm, root, sent, received);
    c.nonblocking = true;
    c.sources = sources_of(c.comm, sources);
    if (const auto started = started_collectives_.find(request); started != started_collectives_.end()) {
        c.begin = started->second.time;
        c.starting_call = started->second.call;
        started_collectives_.erase(started);
    } else [[unlikely]] {
        unstarted_collectives_.add("request " + std::to_string(request) + " " + where(t));
    }
    push_collective(t, c);
}

std::optional<CommId> EventStoreBuilder::io_handle_comm(OTF2_IoHandleRef handle) const {
    const std::optional<CommId> comm = defs_.io_handle_comm(handle);
    if (!comm || !member_of_[*comm]) return std::nullopt;
    return comm;
}

void EventStoreBuilder::io_operation_begin(std::uint64_t time, OTF2_IoHandleRef handle, OTF2_IoOperationMode mode,
                                           OTF2_IoOperationFlag flags, std::uint64_t matching_id) {
    const Ticks t = corrected(time, "IO_OPERATION_BEGIN");
    // A begin whose operation never completes before the next one with
    // the same ids lost its completion; the newer one takes the ids.
    const auto [it, added] = open_io_operations_.insert_or_assign({handle, matching_id},
                                                                  OpenIoOperation{t, open_call(), mode, flags});
    if (!added) [[unlikely]]
        uncompleted_io_.add("handle " + std::to_string(handle) + ", matching id " + std::to_string(matching_id) +
                            " " + where(t));
}

void EventStoreBuilder::io_operation_complete(std::uint64_t time, OTF2_IoHandleRef handle, std::uint64_t bytes,
                                              std::uint64_t matching_id) {
    const Ticks t = corrected(time, "IO_OPERATION_COMPLETE");
    const auto open = open_io_operations_.find({handle, matching_id});
    if (open == open_io_operations_.end()) [[unlikely]] {
        unbegun_io_.add("handle " + std::to_string(handle) + ", matching id " + std::to_string(matching_id) + " " +
                        where(t));
        return;
    }
    const OpenIoOperation operation = open->second;
    open_io_operations_.erase(open);
    // No call to file its bytes or synchronization under.
    if (open_.empty()) [[unlikely]] {
        outside_io_.add("handle " + std::to_string(handle) + ", matching id " + std::to_string(matching_id) + " " +
                        where(t));
        return;
    }
    if (moved_file_bytes(operation.mode, bytes))
        trace_.file_transfers.push_back({bytes, open_call(), operation.mode == OTF2_IO_OPERATION_MODE_READ});
    if ((operation.flags & OTF2_IO_OPERATION_FLAG_COLLECTIVE) == 0) return;
    const std::optional<CommId> comm = io_handle_comm(handle);
    if (!comm) [[unlikely]] {
        commless_collective_io_.add("handle " + std::to_string(handle) + " " + where(t));
        return;
    }
    Collective c{*comm, -1, 0, 0, open_call(), CollectiveOp::FileIo};
    c.begin = operation.begin;
    if ((operation.flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING) != 0) {
        c.nonblocking = true;
        c.starting_call = operation.call;
    }
    push_collective(t, c);
}

void EventStoreBuilder::io_operation_cancelled(std::uint64_t time, OTF2_IoHandleRef handle,
                                               std::uint64_t matching_id) {
    (void)corrected(time, "IO_OPERATION_CANCELLED");
    open_io_operations_.erase({handle, matching_id});
}

void EventStoreBuilder::io_record(std::uint64_t time, const char* record) { (void)corrected(time, record); }

void EventStoreBuilder::program_begin(std::uint64_t time, OTF2_StringRef program_name,
                                      std::span<const OTF2_StringRef> arguments) {
    const Ticks t = corrected(time, "PROGRAM_BEGIN");
    // Score-P names an artificial region after the program and shows it as
    // the root of the call tree; so does Hindsight.
    const std::string& name = defs_.string(program_name);
    trace_.program = name;
    trace_.program_arguments.clear();
    for (const OTF2_StringRef argument : arguments) trace_.program_arguments.push_back(defs_.string(argument));
    const std::string base = std::filesystem::path(name).filename().string();
    const auto& regions = defs_.definitions.regions;
    for (RegionId r = 0; r < regions.size(); ++r) {
        if (regions[r].role != RegionRole::Artificial || name.empty()) continue;
        if (regions[r].canonical_name == name || regions[r].name == name || regions[r].name == base) {
            program_region_ = r;
            break;
        }
    }
    trace_.program_start = program_region_ ? LocalTrace::ProgramStart::Region : LocalTrace::ProgramStart::NoRegion;
    if (!program_region_) return;
    if (!open_.empty()) fail("PROGRAM_BEGIN inside an open region");
    push_enter(t, *program_region_);
    program_open_ = true;
}

void EventStoreBuilder::program_end(std::uint64_t time) {
    const Ticks t = corrected(time, "PROGRAM_END");
    if (!program_open_) return;
    if (open_.size() != 1)
        fail("PROGRAM_END while region '" +
             defs_.definitions.regions[open_.back().region].name + "' is open");
    push_leave(t);
    program_open_ = false;
}

RequestEnds EventStoreBuilder::take_request_ends() {
    RequestEnds ends = std::move(request_ends_);
    ends.open_sends.assign(open_send_requests_.begin(), open_send_requests_.end());
    for (const auto& [request, posted] : posted_requests_)
        if (posted.posted != kNoEvent) ends.open_receives.emplace_back(request, trace_.events[posted.posted].time);
    ends.receives_posted = any_receive_posted_;
    return ends;
}

MessageSlots EventStoreBuilder::finish() {
    if (!open_.empty())
        fail("the event stream ends inside region '" +
             defs_.definitions.regions[open_.back().region].name + "' (truncated trace?)");
    stats.last_time = last_time_;
    const auto note = [&](const DamageTally& tally, const std::string& what, const std::string& treatment) {
        tally.note(trace_.rank, what, treatment, stats.damage);
    };
    note(unended_collectives_, "MPI_COLLECTIVE_BEGIN records without their MPI_COLLECTIVE_END",
         "those calls are analyzed as no collective operation, without wait states");
    note(unstarted_collectives_,
         "NON_BLOCKING_COLLECTIVE_COMPLETE records of requests no NON_BLOCKING_COLLECTIVE_REQUEST started",
         "analyzed as if the operations had begun in the calls that complete them");
    note(unbegun_io_, "IO_OPERATION_COMPLETE records of operations no IO_OPERATION_BEGIN began",
         "their bytes and synchronization are left out");
    for (const auto& [ids, operation] : open_io_operations_) {
        // Named by the call that began it: no call is open any more.
        const std::string call =
            operation.call == kNoEvent
                ? std::string()
                : "in '" + trace_.region_of(trace_.events[operation.call].cnode).name + "' ";
        std::ostringstream at;
        at << trace_.seconds(operation.begin);
        uncompleted_io_.add("handle " + std::to_string(ids.first) + ", matching id " + std::to_string(ids.second) +
                            " " + call + "at " + at.str() + " s");
    }
    note(uncompleted_io_, "IO_OPERATION_BEGIN records without their IO_OPERATION_COMPLETE",
         "their bytes and synchronization are left out");
    note(outside_io_, "IO_OPERATION_COMPLETE records outside any region", "their bytes and synchronization are left out");
    note(commless_collective_io_,
         "collective I/O operations on handles without a communicator of this rank",
         "analyzed as file I/O without wait states, their synchronization is left out");
    note_rma_damage();
    number_starts(trace_.collectives);
    return std::move(slots_).finish();
}

void number_starts(std::vector<Collective>& collectives) {
    // Each operation's start: the starting call of a non-blocking one, else
    // the call holding it. The table is in completion order, the events of
    // blocking operations in start order already.
    std::vector<std::pair<std::pair<CommId, EventIndex>, std::uint32_t>> starts;
    starts.reserve(collectives.size());
    for (std::uint32_t c = 0; c < collectives.size(); ++c) {
        const Collective& coll = collectives[c];
        const EventIndex start = coll.starting_call != kNoEvent ? coll.starting_call : coll.call_enter;
        starts.push_back({{coll.comm, start}, c});
    }
    std::stable_sort(starts.begin(), starts.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::uint32_t number = 0;
    for (std::size_t k = 0; k < starts.size(); ++k) {
        if (k > 0 && starts[k].first.first != starts[k - 1].first.first) number = 0;
        collectives[starts[k].second].started_as = number++;
    }
}

}  // namespace hindsight::trace
