#include "tests/analyses/builder_traces.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <variant>

#include <unistd.h>

#include "common/error.hpp"
#include "trace/comm_layout.hpp"
#include "trace/event_store_builder.hpp"
#include "trace/otf2_enums.hpp"
#include "trace/source_lists.hpp"
#include "tests/support/mpi_regions.hpp"

namespace hindsight::testing {
namespace {

using trace::CollectiveOp;
using trace::EventIndex;
using trace::EventKind;

Definitions definitions_of(const TraceBuilder& builder, std::map<std::string, RegionId>& regions) {
    Definitions defs;
    defs.clock = builder.clock();
    for (int r = 0; r < builder.size(); ++r) {
        for (const RecordedEvent& e : builder.rank(r).events()) {
            const auto* enter = std::get_if<event::Enter>(&e.payload);
            if (!enter || regions.count(enter->region)) continue;
            Region region;
            region.name = region.canonical_name = enter->region;
            if (is_mpi_region(enter->region)) {
                region.paradigm = Paradigm::Mpi;
                region.role = trace::role_from_otf2(mpi_region_role(enter->region));
                region.source_file = "MPI";
            } else if (enter->region == kBufferFlushRegion) {  // as the archive writer defines it
                region.paradigm = Paradigm::MeasurementSystem;
                region.role = RegionRole::Artificial;
            } else {
                region.paradigm = Paradigm::User;
                region.role = RegionRole::Function;
            }
            regions.emplace(enter->region, static_cast<RegionId>(defs.regions.size()));
            defs.regions.push_back(std::move(region));
        }
    }
    Group locations{"", GroupType::CommLocations, Paradigm::Mpi, {}};
    for (int r = 0; r < builder.size(); ++r) locations.members.push_back(static_cast<std::uint64_t>(r));
    defs.groups.push_back(std::move(locations));
    for (const CommTable::Entry& entry : builder.comms().entries()) {
        Group group{entry.name, entry.world_ranks.empty() ? GroupType::CommSelf : GroupType::CommGroup,
                    Paradigm::Mpi, {}};
        for (int r : entry.world_ranks) group.members.push_back(static_cast<std::uint64_t>(r));
        defs.communicators.push_back(
            {entry.name, static_cast<GroupId>(defs.groups.size()),
             entry.parent == OTF2_UNDEFINED_COMM ? kNoId : entry.parent,
             static_cast<std::uint32_t>(entry.first_group_size)});
        defs.groups.push_back(std::move(group));
    }
    // The system tree as the archive has it: the machine, then its nodes in
    // order of their first rank.
    defs.system_tree.push_back({"Linux", "machine", kNoId});
    std::map<std::string, SystemTreeNodeId> nodes;
    for (int r = 0; r < builder.size(); ++r) {
        const auto [node, added] =
            nodes.emplace(builder.node_of_rank(r), static_cast<SystemTreeNodeId>(defs.system_tree.size()));
        if (added) defs.system_tree.push_back({builder.node_of_rank(r), "node", 0});
        defs.location_groups.push_back({"MPI Rank " + std::to_string(r), node->second});
        defs.locations.push_back({static_cast<LocationId>(r), "Master thread",
                                  static_cast<LocationGroupId>(r),
                                  builder.rank(r).events().size()});
    }
    return defs;
}

// Turns one rank's recorded OTF2 events into event-store records.
class RankConverter {
public:
    RankConverter(trace::LocalTrace& trace, const Definitions& defs, CallTree& tree,
                  const std::map<std::string, RegionId>& regions, const std::vector<TraceBuilder::FileEntry>& files)
        : trace_(trace), defs_(defs), tree_(tree), regions_(regions), files_(files) {}

    void operator()(Ticks t, const event::Enter& e) {
        const CallPathId parent = open_.empty() ? kNoCallPath : top().cnode;
        const CallPathId cnode = tree_.child(parent, regions_.at(e.region));
        open_.push_back(add({t, cnode, 0, trace::EventKind::Enter}));
    }
    void operator()(Ticks t, const event::Leave& e) {
        if (open_.empty()) throw Error("", "leave without enter in a builder trace");
        // The loader adds MPI_Init's and MPI_Finalize's implicit collective
        // right before their leave.
        if (e.region == "MPI_Init" || e.region == "MPI_Init_thread")
            add_collective(t, trace::CollectiveOp::Init);
        else if (e.region == "MPI_Finalize")
            add_collective(t, trace::CollectiveOp::Finalize);
        const trace::EventIndex enter = open_.back();
        // As the loader: the next receive takes the message a blocking probe
        // waited for, or the polling of the non-blocking probes before it.
        if (e.region == "MPI_Probe" || e.region == "MPI_Mprobe") unclaimed_probe_ = enter;
        if ((e.region == "MPI_Iprobe" || e.region == "MPI_Improbe") && first_polling_probe_ == trace::kNoEvent)
            first_polling_probe_ = enter;
        open_.pop_back();
        const trace::EventIndex leave = add({t, trace_.events[enter].cnode, enter, trace::EventKind::Leave});
        trace_.events[enter].ref = leave;
    }
    void operator()(Ticks t, const event::MpiSend& e) { message(t, trace::EventKind::Send, e.envelope, false); }
    void operator()(Ticks t, const event::MpiIsend& e) { message(t, trace::EventKind::Send, e.envelope, true); }
    void operator()(Ticks t, const event::MpiRecv& e) { message(t, trace::EventKind::Recv, e.envelope, false); }
    void operator()(Ticks t, const event::MpiIrecv& e) {
        const auto posted = posted_requests_.find(e.request);
        const bool known = posted != posted_requests_.end();
        message(t, trace::EventKind::Recv, e.envelope, true, known ? posted->second.second : trace::kNoEvent);
        // As the loader: the call that posted the request, if it was seen.
        if (!known) return;
        trace_.posted_receives.push_back({static_cast<std::uint32_t>(trace_.messages.size() - 1), posted->second.first});
        posted_requests_.erase(posted);
    }
    void operator()(Ticks, const event::MpiIrecvRequest& e) {
        if (!open_.empty()) posted_requests_[e.request] = {open_.back(), trace::kNoEvent};
    }
    // As the loader: the first unsuccessful test of a receive request since
    // polling calls were last taken.
    void operator()(Ticks, const event::MpiRequestTest& e) {
        const auto posted = posted_requests_.find(e.request);
        if (posted == posted_requests_.end() || open_.empty()) return;
        trace::EventIndex& first = posted->second.second;
        if (first == trace::kNoEvent || (polls_taken_by_ != trace::kNoEvent && first <= polls_taken_by_))
            first = open_.back();
    }
    void operator()(Ticks, const event::MpiRequestCancelled& e) { posted_requests_.erase(e.request); }
    // Kept for the collective that ends next, as the loader keeps it.
    void operator()(Ticks t, const event::MpiCollectiveBegin&) { collective_begin_ = t; }
    void operator()(Ticks t, const event::MpiCollectiveEnd& e) {
        trace_.collectives.push_back(collective(e));
        trace_.collectives.back().begin = std::exchange(collective_begin_, trace::Collective::kNoBegin);
        add({t, top().cnode, static_cast<std::uint32_t>(trace_.collectives.size() - 1),
             trace::EventKind::CollectiveEnd});
    }
    // As the loader: a non-blocking collective's event where it completes,
    // with when and in which call it was started.
    void operator()(Ticks t, const event::NonBlockingCollectiveRequest& e) {
        if (!open_.empty()) started_collectives_[e.request] = {t, open_.back()};
    }
    void operator()(Ticks t, const event::NonBlockingCollectiveComplete& e) {
        trace::Collective coll = collective(e.collective);
        coll.nonblocking = true;
        if (const auto started = started_collectives_.find(e.request); started != started_collectives_.end()) {
            coll.begin = started->second.first;
            coll.starting_call = started->second.second;
            started_collectives_.erase(started);
        }
        trace_.collectives.push_back(coll);
        add({t, top().cnode, static_cast<std::uint32_t>(trace_.collectives.size() - 1),
             trace::EventKind::CollectiveEnd});
    }
    // As the loader: I/O operations paired by handle and matching id, their
    // bytes at the completing call, a collective one on a handle with a
    // communicator as a collective operation at its completion.
    void operator()(Ticks t, const event::IoOperationBegin& e) {
        open_io_[{e.handle, e.matching_id}] = {t, open_.back(), e.mode, e.flags};
    }
    void operator()(Ticks t, const event::IoOperationComplete& e) {
        const auto open = open_io_.find({e.handle, e.matching_id});
        if (open == open_io_.end()) return;
        const OpenIo operation = open->second;
        open_io_.erase(open);
        if (operation.mode == OTF2_IO_OPERATION_MODE_READ || operation.mode == OTF2_IO_OPERATION_MODE_WRITE)
            trace_.file_transfers.push_back({e.bytes_result, open_.back(), operation.mode == OTF2_IO_OPERATION_MODE_READ});
        const auto& comm = files_.at(e.handle).comm;
        if ((operation.flags & OTF2_IO_OPERATION_FLAG_COLLECTIVE) == 0 || !comm) return;
        trace::Collective coll;
        coll.comm = comm->id;
        coll.call_enter = open_.back();
        coll.op = trace::CollectiveOp::FileIo;
        coll.begin = operation.begin;
        if ((operation.flags & OTF2_IO_OPERATION_FLAG_NON_BLOCKING) != 0) {
            coll.nonblocking = true;
            coll.starting_call = operation.call;
        }
        trace_.collectives.push_back(coll);
        add({t, top().cnode, static_cast<std::uint32_t>(trace_.collectives.size() - 1),
             trace::EventKind::CollectiveEnd});
    }
    // Other request bookkeeping and program begin/end leave no record in
    // the event store.
    template <typename Other>
    void operator()(Ticks, const Other&) {}

private:
    Ticks collective_begin_ = trace::Collective::kNoBegin;
    const trace::Event& top() const { return trace_.events[open_.back()]; }
    trace::EventIndex add(trace::Event e) {
        trace_.events.push_back(e);
        return static_cast<trace::EventIndex>(trace_.events.size() - 1);
    }
    trace::Collective collective(const event::MpiCollectiveEnd& e) {
        trace::Collective coll;
        coll.comm = e.comm;
        // As the loader: no root on an intercommunicator.
        coll.root = e.root == OTF2_UNDEFINED_UINT32 || trace::comm_layout(defs_, e.comm).first_group_size > 0
                        ? -1
                        : static_cast<std::int32_t>(e.root);
        coll.bytes_sent = e.sent;
        coll.bytes_received = e.received;
        coll.call_enter = open_.back();
        coll.op = trace::collective_op_from_otf2(e.op);
        // As the loader: the members it received data from, in ranks of the
        // communicator, each distinct list once.
        if (e.sources) {
            const std::vector<std::uint64_t> members(e.sources->begin(), e.sources->end());
            coll.sources = source_lists_.add(trace_.source_lists, trace::comm_layout(defs_, e.comm), trace_.rank,
                                             members);
        }
        return coll;
    }
    void message(Ticks t, trace::EventKind kind, const event::Envelope& env, bool nonblocking,
                 trace::EventIndex first_test = trace::kNoEvent) {
        trace::Message msg;
        msg.comm = env.comm;
        // As the loader: an intercommunicator's events name ranks of the other group.
        const trace::CommLayout layout = trace::comm_layout(defs_, env.comm);
        msg.partner = layout.peer_rank(static_cast<int>(env.peer), layout.rank_of(trace_.rank));
        msg.tag = env.tag;
        msg.bytes = env.bytes;
        msg.call_enter = open_.back();
        msg.nonblocking = nonblocking;
        trace_.messages.push_back(msg);
        add({t, top().cnode, static_cast<std::uint32_t>(trace_.messages.size() - 1), kind});
        if (kind == trace::EventKind::Recv) note_waiting_calls(first_test);
    }
    // As the loader (EventStoreBuilder::note_waiting_calls).
    void note_waiting_calls(trace::EventIndex first_test) {
        const auto message = static_cast<std::uint32_t>(trace_.messages.size() - 1);
        const trace::EventIndex polling_probe = std::exchange(first_polling_probe_, trace::kNoEvent);
        if (unclaimed_probe_ != trace::kNoEvent) {
            trace_.probed_receives.push_back({message, std::exchange(unclaimed_probe_, trace::kNoEvent)});
            return;
        }
        const trace::EventIndex call = open_.back();
        const auto polls_here = [&](trace::EventIndex first) {
            return first != trace::kNoEvent && first < call &&
                   (polls_taken_by_ == trace::kNoEvent || first > polls_taken_by_ || call == polls_taken_by_);
        };
        trace::EventIndex first = polls_here(polling_probe) ? polling_probe : trace::kNoEvent;
        if (polls_here(first_test) && (first == trace::kNoEvent || first_test < first)) first = first_test;
        if (first == trace::kNoEvent) return;
        trace_.polled_receives.push_back({message, first});
        polls_taken_by_ = call;
    }
    void add_collective(Ticks t, trace::CollectiveOp op) {
        trace::Collective coll;
        coll.comm = 0;  // MPI_COMM_WORLD
        coll.call_enter = open_.back();
        coll.op = op;
        trace_.collectives.push_back(coll);
        add({t, top().cnode, static_cast<std::uint32_t>(trace_.collectives.size() - 1),
             trace::EventKind::CollectiveEnd});
    }

    trace::LocalTrace& trace_;
    const Definitions& defs_;
    CallTree& tree_;
    const std::map<std::string, RegionId>& regions_;
    std::vector<trace::EventIndex> open_;
    // Receive requests not yet completed: the posting call, the first unsuccessful test.
    std::map<std::uint64_t, std::pair<trace::EventIndex, trace::EventIndex>> posted_requests_;
    trace::EventIndex unclaimed_probe_ = trace::kNoEvent;  // the last blocking probe, until a receive takes it
    trace::EventIndex first_polling_probe_ = trace::kNoEvent;  // since the last receive
    trace::EventIndex polls_taken_by_ = trace::kNoEvent;  // the last call whose receive took polling calls
    // Non-blocking collectives not yet completed: when and in which call they began.
    std::map<std::uint64_t, std::pair<Ticks, trace::EventIndex>> started_collectives_;
    trace::SourceListTable source_lists_;
    const std::vector<TraceBuilder::FileEntry>& files_;  // by I/O handle id
    // I/O operations begun and not yet completed, by handle and matching id.
    struct OpenIo {
        Ticks begin = 0;
        trace::EventIndex call = trace::kNoEvent;
        OTF2_IoOperationMode mode = OTF2_IO_OPERATION_MODE_READ;
        OTF2_IoOperationFlag flags = OTF2_IO_OPERATION_FLAG_NONE;
    };
    std::map<std::pair<std::uint32_t, std::uint64_t>, OpenIo> open_io_;
};

// With HINDSIGHT_SCENARIO_DUMP=DIR, every scenario a test analyzes is also
// written as an archive DIR/ranksN-PID-K, so that scripts/compare-analyses
// can run two builds of the analyzer on all of them.
void dump_scenario(const TraceBuilder& builder) {
    const char* dir = std::getenv("HINDSIGHT_SCENARIO_DUMP");
    if (!dir || !*dir) return;
    static int written = 0;  // test support only: names the archives of one test process
    builder.write(std::filesystem::path(dir) / ("ranks" + std::to_string(builder.size()) + "-" +
                                                std::to_string(getpid()) + "-" + std::to_string(written++)));
}

}  // namespace

std::vector<trace::LocalTrace> local_traces(const TraceBuilder& builder) {
    dump_scenario(builder);
    std::map<std::string, RegionId> regions;
    const Definitions defs = definitions_of(builder, regions);
    // One tree for all ranks: its ids are then global, as after the merge.
    CallTree tree;
    std::vector<trace::LocalTrace> traces(static_cast<std::size_t>(builder.size()));
    for (int r = 0; r < builder.size(); ++r) {
        builder.rank(r).check_complete();
        trace::LocalTrace& trace = traces[static_cast<std::size_t>(r)];
        trace.rank = r;
        trace.anchor_path = "builder-trace";
        RankConverter convert(trace, defs, tree, regions, builder.files());
        for (const RecordedEvent& e : builder.rank(r).events())
            std::visit([&](const auto& payload) { convert(e.time, payload); }, e.payload);
        trace::number_starts(trace.collectives);
    }
    for (auto& trace : traces) {
        trace.definitions = defs;
        trace.call_tree = tree;
    }
    return traces;
}

}  // namespace hindsight::testing
