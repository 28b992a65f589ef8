#include "tests/support/archive_writer.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <otf2/otf2.h>

#include "common/error.hpp"
#include "common/receive_sources.hpp"
#include "tests/support/mpi_regions.hpp"
#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {
namespace {

constexpr std::uint64_t kEventChunkSize = 1024 * 1024;
constexpr std::uint64_t kDefinitionChunkSize = 4 * 1024 * 1024;

// Fixed ids of the definitions every trace has.
constexpr OTF2_SystemTreeNodeRef kMachineNode = 0;
constexpr OTF2_GroupRef kLocationsGroup = 0;
constexpr OTF2_GroupRef kSelfGroup = 1;
constexpr OTF2_GroupRef kFirstCommGroup = 2;
// Hindsight's receive-sources attribute, defined when an event carries it.
constexpr OTF2_AttributeRef kSourcesAttribute = 0;

// The sources a collective's end event carries (see RankBuilder::receive_sources).
const std::optional<std::vector<int>>* sources_of(const EventPayload& payload) {
    if (const auto* end = std::get_if<event::MpiCollectiveEnd>(&payload)) return &end->sources;
    if (const auto* complete = std::get_if<event::NonBlockingCollectiveComplete>(&payload))
        return &complete->collective.sources;
    return nullptr;
}

// The two groups of an intercommunicator's entry (CommTable::Entry).
std::vector<int> first_group(const CommTable::Entry& c) {
    return {c.world_ranks.begin(), c.world_ranks.begin() + static_cast<std::ptrdiff_t>(c.first_group_size)};
}
std::vector<int> second_group(const CommTable::Entry& c) {
    return {c.world_ranks.begin() + static_cast<std::ptrdiff_t>(c.first_group_size), c.world_ranks.end()};
}

// Buffers are flushed whenever OTF2 asks, and no timestamps are recorded
// for the flushes (the trace holds exactly the declared events).
// Every location with its events: per rank the master (id = world rank),
// then its OpenMP workers (id = (thread << 32) | rank), as Score-P orders them.
struct LocationEntry {
    OTF2_LocationRef id;
    int rank;
    int thread;
    const RankBuilder* events;
};

std::vector<LocationEntry> all_locations(const TraceBuilder& trace) {
    std::vector<LocationEntry> locations;
    for (int r = 0; r < trace.size(); ++r)
        for (int t = 0; t < trace.threads(); ++t)
            locations.push_back({(static_cast<OTF2_LocationRef>(t) << 32) | static_cast<OTF2_LocationRef>(r), r, t,
                                 &trace.thread(r, t)});
    return locations;
}

std::string location_name(int thread) { return thread == 0 ? "Master thread" : "OMP thread " + std::to_string(thread); }

// Score-P's paradigm and role of an OpenMP construct's region ("!$omp
// barrier @file:line") or API function ("omp_set_lock").
bool is_openmp_region(const std::string& name) { return name.starts_with("!$omp") || name.starts_with("omp_"); }

OTF2_RegionRole openmp_role(const std::string& name) {
    const auto construct = [&](const std::string& prefix) {
        return name == prefix || name.starts_with(prefix + " @");
    };
    if (construct("!$omp parallel")) return OTF2_REGION_ROLE_PARALLEL;
    if (construct("!$omp barrier")) return OTF2_REGION_ROLE_BARRIER;
    if (construct("!$omp implicit barrier") || construct("!$omp ibarrier")) return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
    if (construct("!$omp critical sblock")) return OTF2_REGION_ROLE_CRITICAL_SBLOCK;
    if (construct("!$omp critical")) return OTF2_REGION_ROLE_CRITICAL;
    if (construct("!$omp for") || construct("!$omp do")) return OTF2_REGION_ROLE_LOOP;
    if (construct("!$omp task")) return OTF2_REGION_ROLE_TASK;
    if (construct("!$omp untied task")) return OTF2_REGION_ROLE_TASK_UNTIED;
    return name.starts_with("omp_") ? OTF2_RegionRole{OTF2_REGION_ROLE_WRAPPER} : OTF2_RegionRole{OTF2_REGION_ROLE_CODE};
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
const OTF2_FlushCallbacks kFlushCallbacks = {pre_flush, post_flush};

// An open archive being written; closed on destruction.
class ArchiveWriter {
public:
    explicit ArchiveWriter(const std::filesystem::path& dir)
        : anchor_((dir / "traces.otf2").string()) {
        archive_.reset(OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE,
                                         kEventChunkSize, kDefinitionChunkSize,
                                         OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
        if (!archive_) throw Error(anchor_, "OTF2 cannot create the archive");
        check(OTF2_Archive_SetFlushCallbacks(get(), &kFlushCallbacks, nullptr), "flush callbacks");
        check(OTF2_Archive_SetSerialCollectiveCallbacks(get()), "collective callbacks");
        check(OTF2_Archive_SetCreator(get(), "Hindsight trace builder"), "creator");
    }

    OTF2_Archive* get() const { return archive_.get(); }

    void check(OTF2_ErrorCode code, const std::string& what) const {
        if (code != OTF2_SUCCESS)
            throw Error(anchor_,
                        "OTF2 failed writing " + what + ": " + OTF2_Error_GetDescription(code));
    }

    // Closes the archive, reporting a failure (the destructor cannot).
    void close() { check(OTF2_Archive_Close(archive_.release()), "the archive"); }

private:
    struct Close {
        void operator()(OTF2_Archive* a) const { OTF2_Archive_Close(a); }
    };
    std::string anchor_;
    std::unique_ptr<OTF2_Archive, Close> archive_;
};

// Global string definitions, each distinct string once, in first-use order.
class StringTable {
public:
    OTF2_StringRef intern(const std::string& s) {
        const auto [it, added] = ids_.try_emplace(s, static_cast<OTF2_StringRef>(strings_.size()));
        if (added) strings_.push_back(s);
        return it->second;
    }
    // The id of a string interned before.
    OTF2_StringRef at(const std::string& s) const { return ids_.at(s); }
    const std::vector<std::string>& strings() const { return strings_; }

private:
    std::unordered_map<std::string, OTF2_StringRef> ids_;
    std::vector<std::string> strings_;
};

// Every id the definitions and events use, decided before anything is
// written so that each string definition precedes its users: regions in
// order of first use (rank by rank), compute nodes in order of first
// appearance, one COMM_GROUP per distinct member list (of a communicator
// or of the receive sources of an event: a list both have is one group).
struct Layout {
    StringTable strings;
    std::vector<std::string> regions;
    std::unordered_map<std::string, OTF2_RegionRef> region_ids;
    std::vector<std::string> nodes;  // system tree node i + 1
    std::map<std::string, OTF2_SystemTreeNodeRef> node_ids;
    std::vector<std::vector<int>> comm_groups;  // group kFirstCommGroup + i
    std::map<std::vector<int>, OTF2_GroupRef> comm_group_ids;
    OTF2_StringRef mpi_io = OTF2_UNDEFINED_STRING;  // the MPI-IO paradigm's name, with files
    OTF2_StringRef empty, mpi, comm_template, machine_class, machine_name, node_class, thread_name,
        program_name, openmp = OTF2_UNDEFINED_STRING;
    // With OpenMP threads: the group of all thread locations, then per rank
    // its team's group, and per rank its team communicator.
    OTF2_GroupRef openmp_locations = OTF2_UNDEFINED_GROUP;
    OTF2_CommRef first_team = OTF2_UNDEFINED_COMM;
    bool any_sources = false;
    OTF2_StringRef sources_name = OTF2_UNDEFINED_STRING, sources_description = OTF2_UNDEFINED_STRING;

    explicit Layout(const TraceBuilder& trace) {
        std::vector<std::string> arguments;
        for (const LocationEntry& l : all_locations(trace))
            for (const RecordedEvent& e : l.events->events())
                if (const auto* enter = std::get_if<event::Enter>(&e.payload))
                    if (region_ids.try_emplace(enter->region, id<OTF2_RegionRef>(regions)).second)
                        regions.push_back(enter->region);
        for (int r = 0; r < trace.size(); ++r) {
            for (const RecordedEvent& e : trace.rank(r).events()) {
                if (const auto* enter = std::get_if<event::Enter>(&e.payload))
                    if (region_ids.try_emplace(enter->region, id<OTF2_RegionRef>(regions)).second)
                        regions.push_back(enter->region);
                if (const auto* begin = std::get_if<event::ProgramBegin>(&e.payload))
                    arguments.insert(arguments.end(), begin->arguments.begin(), begin->arguments.end());
            }
            const std::string& node = trace.node_of_rank(r);
            if (node_ids.try_emplace(node, id<OTF2_SystemTreeNodeRef>(nodes) + 1).second)
                nodes.push_back(node);
        }
        const auto add_group = [&](const std::vector<int>& members) {
            if (comm_group_ids.try_emplace(members, kFirstCommGroup + id<OTF2_GroupRef>(comm_groups)).second)
                comm_groups.push_back(members);
        };
        for (const CommTable::Entry& c : trace.comms().entries()) {
            if (c.world_ranks.empty()) continue;  // MPI_COMM_SELF has a group of its own
            if (c.first_group_size == 0) {
                add_group(c.world_ranks);
            } else {  // an intercommunicator refers to its two groups
                add_group(first_group(c));
                add_group(second_group(c));
            }
        }
        for (int r = 0; r < trace.size(); ++r)
            for (const RecordedEvent& e : trace.rank(r).events())
                if (const auto* sources = sources_of(e.payload); sources && *sources) {
                    add_group(**sources);
                    any_sources = true;
                }
        for (int r = 0; r < trace.size(); ++r)
            for (const RecordedEvent& e : trace.rank(r).events())
                if (const auto* sync = std::get_if<event::RmaGroupSync>(&e.payload)) add_group(sync->world_ranks);

        empty = strings.intern("");
        mpi = strings.intern("MPI");
        comm_template = strings.intern("Comm ${id}");
        machine_class = strings.intern("machine");
        machine_name = strings.intern(trace.machine_name());
        node_class = strings.intern("node");
        for (const std::string& n : nodes) strings.intern(n);
        for (int r = 0; r < trace.size(); ++r) strings.intern(rank_name(r));
        thread_name = strings.intern("Master thread");
        for (const std::string& r : regions) strings.intern(r);
        for (const CommTable::Entry& c : trace.comms().entries()) strings.intern(c.name);
        program_name = strings.intern(trace.program_name());
        if (!trace.files().empty()) mpi_io = strings.intern("MPI-IO");
        for (const TraceBuilder::FileEntry& f : trace.files()) strings.intern(f.name);
        for (const TraceBuilder::WindowEntry& w : trace.windows()) strings.intern(w.name);
        for (const std::string& a : arguments) strings.intern(a);
        if (any_sources) {
            sources_name = strings.intern(kReceiveSourcesAttribute);
            sources_description = strings.intern(kReceiveSourcesDescription);
        }
        if (trace.threads() > 1) {
            openmp = strings.intern("OpenMP");
            for (int t = 1; t < trace.threads(); ++t) strings.intern(location_name(t));
            for (int r = 0; r < trace.size(); ++r) strings.intern(team_name(r));
            openmp_locations = kFirstCommGroup + id<OTF2_GroupRef>(comm_groups);
            first_team = static_cast<OTF2_CommRef>(trace.comms().entries().size());
        }
    }

    static std::string team_name(int r) { return "Thread team " + std::to_string(r); }

    static std::string rank_name(int r) { return "MPI Rank " + std::to_string(r); }

    template <typename Ref, typename T>
    static Ref id(const std::vector<T>& v) {
        return static_cast<Ref>(v.size());
    }
};

std::vector<std::uint64_t> as_members(const std::vector<int>& ranks) {
    return {ranks.begin(), ranks.end()};
}

void write_region(OTF2_GlobalDefWriter* w, const ArchiveWriter& a, const Layout& layout,
                  OTF2_RegionRef id, const std::string& name) {
    const OTF2_StringRef name_ref = layout.strings.at(name);
    const bool mpi = is_mpi_region(name);
    // User regions are plain functions; MPI ones get Score-P's role; the
    // measurement's buffer flush is Score-P's artificial region; OpenMP
    // constructs and API functions Score-P's OpenMP paradigm and roles.
    const bool flush = name == kBufferFlushRegion;
    const bool openmp = is_openmp_region(name);
    const OTF2_RegionRole role = mpi      ? mpi_region_role(name)
                                 : flush  ? OTF2_RegionRole{OTF2_REGION_ROLE_ARTIFICIAL}
                                 : openmp ? openmp_role(name)
                                          : OTF2_RegionRole{OTF2_REGION_ROLE_FUNCTION};
    const OTF2_Paradigm paradigm = mpi      ? OTF2_Paradigm{OTF2_PARADIGM_MPI}
                                   : flush  ? OTF2_Paradigm{OTF2_PARADIGM_MEASUREMENT_SYSTEM}
                                   : openmp ? OTF2_Paradigm{OTF2_PARADIGM_OPENMP}
                                            : OTF2_Paradigm{OTF2_PARADIGM_USER};
    a.check(OTF2_GlobalDefWriter_WriteRegion(w, id, name_ref, name_ref, layout.empty, role,
                                             paradigm, OTF2_REGION_FLAG_NONE,
                                             mpi ? layout.mpi : OTF2_UNDEFINED_STRING, 0, 0),
            "region " + name);
}

void write_system_tree(OTF2_GlobalDefWriter* w, const ArchiveWriter& a, const TraceBuilder& trace,
                       const Layout& layout) {
    a.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, kMachineNode, layout.machine_name,
                                                     layout.machine_class,
                                                     OTF2_UNDEFINED_SYSTEM_TREE_NODE),
            "the system tree");
    a.check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, kMachineNode,
                                                           OTF2_SYSTEM_TREE_DOMAIN_MACHINE),
            "the system tree");
    for (const std::string& node : layout.nodes) {
        const OTF2_SystemTreeNodeRef id = layout.node_ids.at(node);
        a.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, layout.strings.at(node),
                                                         layout.node_class, kMachineNode),
                "the system tree");
        a.check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
                    w, id, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY),
                "the system tree");
    }
    // One process per rank, each with its master thread; location and
    // location group ids equal the world rank.
    for (int r = 0; r < trace.size(); ++r)
        a.check(OTF2_GlobalDefWriter_WriteLocationGroup(
                    w, static_cast<OTF2_LocationGroupRef>(r),
                    layout.strings.at(Layout::rank_name(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                    layout.node_ids.at(trace.node_of_rank(r)), OTF2_UNDEFINED_LOCATION_GROUP),
                "location groups");
    for (const LocationEntry& l : all_locations(trace))
        a.check(OTF2_GlobalDefWriter_WriteLocation(
                    w, l.id, l.thread == 0 ? layout.thread_name : layout.strings.at(location_name(l.thread)),
                    OTF2_LOCATION_TYPE_CPU_THREAD, l.events->events().size(),
                    static_cast<OTF2_LocationGroupRef>(l.rank)),
                "locations");
}

void write_group(OTF2_GlobalDefWriter* w, const ArchiveWriter& a, const Layout& layout,
                 OTF2_GroupRef id, OTF2_GroupType type, const std::vector<std::uint64_t>& members,
                 OTF2_Paradigm paradigm = OTF2_PARADIGM_MPI) {
    a.check(OTF2_GlobalDefWriter_WriteGroup(
                w, id, layout.empty, type, paradigm, OTF2_GROUP_FLAG_NONE,
                static_cast<std::uint32_t>(members.size()), members.data()),
            "group " + std::to_string(id));
}

void write_communicators(OTF2_GlobalDefWriter* w, const ArchiveWriter& a, const TraceBuilder& trace,
                         const Layout& layout) {
    // Location ids equal world ranks, so the world's member list doubles as
    // the list of locations in world-rank order.
    write_group(w, a, layout, kLocationsGroup, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                as_members(trace.comms().at(kWorld).world_ranks));
    write_group(w, a, layout, kSelfGroup, OTF2_GROUP_TYPE_COMM_SELF, {});
    for (const auto& members : layout.comm_groups)
        write_group(w, a, layout, layout.comm_group_ids.at(members), OTF2_GROUP_TYPE_COMM_GROUP,
                    as_members(members));

    const auto& comms = trace.comms().entries();
    for (std::size_t i = 0; i < comms.size(); ++i) {
        if (comms[i].first_group_size > 0) {
            a.check(OTF2_GlobalDefWriter_WriteInterComm(w, static_cast<OTF2_CommRef>(i),
                                                        layout.strings.at(comms[i].name),
                                                        layout.comm_group_ids.at(first_group(comms[i])),
                                                        layout.comm_group_ids.at(second_group(comms[i])),
                                                        static_cast<OTF2_CommRef>(kWorld.id), OTF2_COMM_FLAG_NONE),
                    "intercommunicator " + std::to_string(i));
            continue;
        }
        const OTF2_GroupRef group = comms[i].world_ranks.empty()
                                        ? kSelfGroup
                                        : layout.comm_group_ids.at(comms[i].world_ranks);
        a.check(OTF2_GlobalDefWriter_WriteComm(w, static_cast<OTF2_CommRef>(i),
                                               layout.strings.at(comms[i].name), group,
                                               comms[i].parent, OTF2_COMM_FLAG_NONE),
                "communicator " + std::to_string(i));
    }
    if (trace.threads() <= 1) return;
    // OpenMP: the thread locations, each rank's team as indices into them.
    std::vector<std::uint64_t> threads;
    for (const LocationEntry& l : all_locations(trace)) threads.push_back(l.id);
    write_group(w, a, layout, layout.openmp_locations, OTF2_GROUP_TYPE_COMM_LOCATIONS, threads, OTF2_PARADIGM_OPENMP);
    const auto team_size = static_cast<std::uint64_t>(trace.threads());
    for (int r = 0; r < trace.size(); ++r) {
        std::vector<std::uint64_t> team;
        for (std::uint64_t t = 0; t < team_size; ++t) team.push_back(static_cast<std::uint64_t>(r) * team_size + t);
        const OTF2_GroupRef group = layout.openmp_locations + 1 + static_cast<OTF2_GroupRef>(r);
        write_group(w, a, layout, group, OTF2_GROUP_TYPE_COMM_GROUP, team, OTF2_PARADIGM_OPENMP);
        a.check(OTF2_GlobalDefWriter_WriteComm(w, layout.first_team + static_cast<OTF2_CommRef>(r),
                                               layout.strings.at(Layout::team_name(r)), group, OTF2_UNDEFINED_COMM,
                                               OTF2_COMM_FLAG_NONE),
                "thread team " + std::to_string(r));
    }
}

// Score-P's definitions of MPI-IO: its paradigm, and per handle the file
// and the handle naming the communicator it was opened on (handle i on
// file i: each handle opens a file of its own).
void write_files(OTF2_GlobalDefWriter* w, const ArchiveWriter& a, const TraceBuilder& trace, const Layout& layout) {
    if (trace.files().empty()) return;
    constexpr OTF2_IoParadigmRef kMpiIo = 0;
    a.check(OTF2_GlobalDefWriter_WriteIoParadigm(w, kMpiIo, layout.mpi_io, layout.mpi_io,
                                                 OTF2_IO_PARADIGM_CLASS_PARALLEL, OTF2_IO_PARADIGM_FLAG_NONE, 0,
                                                 nullptr, nullptr, nullptr),
            "the MPI-IO paradigm");
    const auto& files = trace.files();
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto id = static_cast<std::uint32_t>(i);
        const OTF2_StringRef name = layout.strings.at(files[i].name);
        a.check(OTF2_GlobalDefWriter_WriteIoRegularFile(w, id, name, kMachineNode), "file " + files[i].name);
        a.check(OTF2_GlobalDefWriter_WriteIoHandle(w, id, name, id, kMpiIo, OTF2_IO_HANDLE_FLAG_NONE,
                                                   files[i].comm ? files[i].comm->id : OTF2_UNDEFINED_COMM,
                                                   OTF2_UNDEFINED_IO_HANDLE),
                "I/O handle " + std::to_string(i));
    }
}

// Score-P's definitions of RMA windows: window i on the communicator it
// was created with.
void write_windows(OTF2_GlobalDefWriter* w, const ArchiveWriter& a, const TraceBuilder& trace, const Layout& layout) {
    const auto& windows = trace.windows();
    for (std::size_t i = 0; i < windows.size(); ++i)
        a.check(OTF2_GlobalDefWriter_WriteRmaWin(w, static_cast<OTF2_RmaWinRef>(i), layout.strings.at(windows[i].name),
                                                 windows[i].comm.id, OTF2_RMA_WIN_FLAG_NONE),
                "RMA window " + std::to_string(i));
}

void write_global_definitions(const ArchiveWriter& a, const TraceBuilder& trace,
                              const Layout& layout) {
    OTF2_GlobalDefWriter* w = OTF2_Archive_GetGlobalDefWriter(a.get());
    if (!w) a.check(OTF2_ERROR_INVALID, "the global definitions");

    const ClockProperties clock = trace.clock();
    a.check(
        OTF2_GlobalDefWriter_WriteClockProperties(w, clock.ticks_per_second, clock.global_offset,
                                                  clock.trace_length,
                                                  trace.start_time().value_or(OTF2_UNDEFINED_TIMESTAMP)),
        "clock properties");
    const auto& strings = layout.strings.strings();
    for (std::size_t i = 0; i < strings.size(); ++i)
        a.check(
            OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), strings[i].c_str()),
            "strings");

    a.check(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, layout.mpi,
                                               OTF2_PARADIGM_CLASS_PROCESS),
            "the MPI paradigm");
    OTF2_AttributeValue template_value;
    template_value.stringRef = layout.comm_template;
    a.check(OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI,
                                                       OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                                       OTF2_TYPE_STRING, template_value),
            "the MPI paradigm");

    if (trace.threads() > 1)
        a.check(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_OPENMP, layout.openmp,
                                                   OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN),
                "the OpenMP paradigm");
    write_system_tree(w, a, trace, layout);
    for (const std::string& region : layout.regions)
        write_region(w, a, layout, layout.region_ids.at(region), region);
    write_communicators(w, a, trace, layout);
    write_files(w, a, trace, layout);
    write_windows(w, a, trace, layout);
    if (layout.any_sources)
        a.check(OTF2_GlobalDefWriter_WriteAttribute(w, kSourcesAttribute, layout.sources_name,
                                                    layout.sources_description, OTF2_TYPE_GROUP),
                "the receive-sources attribute");
}

// The attributes of one event: the receive sources where it has them.
class EventAttributes {
public:
    EventAttributes(const ArchiveWriter& a, const Layout& layout, const EventPayload& payload) {
        const auto* sources = sources_of(payload);
        if (!sources || !*sources) return;
        list_.reset(OTF2_AttributeList_New());
        if (!list_) a.check(OTF2_ERROR_MEM_ALLOC_FAILED, "an attribute list");
        a.check(OTF2_AttributeList_AddGroupRef(list_.get(), kSourcesAttribute, layout.comm_group_ids.at(**sources)),
                "the receive sources");
    }
    OTF2_AttributeList* get() const { return list_.get(); }

private:
    struct Delete {
        void operator()(OTF2_AttributeList* list) const { OTF2_AttributeList_Delete(list); }
    };
    std::unique_ptr<OTF2_AttributeList, Delete> list_;
};

// Writes one recorded event through the location's event writer.
struct EventWriter {
    OTF2_EvtWriter* w;
    OTF2_TimeStamp t;
    const Layout& layout;
    OTF2_AttributeList* attributes;  // of the collectives' ends
    OTF2_CommRef team;               // the location's thread team

    OTF2_ErrorCode operator()(const event::ProgramBegin& e) const {
        std::vector<OTF2_StringRef> arguments;
        for (const std::string& a : e.arguments) arguments.push_back(layout.strings.at(a));
        return OTF2_EvtWriter_ProgramBegin(w, nullptr, t, layout.program_name,
                                           static_cast<std::uint32_t>(arguments.size()), arguments.data());
    }
    OTF2_ErrorCode operator()(const event::ProgramEnd& e) const {
        return OTF2_EvtWriter_ProgramEnd(w, nullptr, t, e.exit_status);
    }
    OTF2_ErrorCode operator()(const event::Enter& e) const {
        return OTF2_EvtWriter_Enter(w, nullptr, t, layout.region_ids.at(e.region));
    }
    OTF2_ErrorCode operator()(const event::Leave& e) const {
        return OTF2_EvtWriter_Leave(w, nullptr, t, layout.region_ids.at(e.region));
    }
    OTF2_ErrorCode operator()(const event::MpiSend& e) const {
        const auto& m = e.envelope;
        return OTF2_EvtWriter_MpiSend(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes);
    }
    OTF2_ErrorCode operator()(const event::MpiRecv& e) const {
        const auto& m = e.envelope;
        return OTF2_EvtWriter_MpiRecv(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes);
    }
    OTF2_ErrorCode operator()(const event::MpiIsend& e) const {
        const auto& m = e.envelope;
        return OTF2_EvtWriter_MpiIsend(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes, e.request);
    }
    OTF2_ErrorCode operator()(const event::MpiIsendComplete& e) const {
        return OTF2_EvtWriter_MpiIsendComplete(w, nullptr, t, e.request);
    }
    OTF2_ErrorCode operator()(const event::MpiIrecvRequest& e) const {
        return OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, t, e.request);
    }
    OTF2_ErrorCode operator()(const event::MpiIrecv& e) const {
        const auto& m = e.envelope;
        return OTF2_EvtWriter_MpiIrecv(w, nullptr, t, m.peer, m.comm, m.tag, m.bytes, e.request);
    }
    OTF2_ErrorCode operator()(const event::MpiRequestTest& e) const {
        return OTF2_EvtWriter_MpiRequestTest(w, nullptr, t, e.request);
    }
    OTF2_ErrorCode operator()(const event::MpiRequestCancelled& e) const {
        return OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, t, e.request);
    }
    OTF2_ErrorCode operator()(const event::MpiCollectiveBegin&) const {
        return OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t);
    }
    OTF2_ErrorCode operator()(const event::MpiCollectiveEnd& e) const {
        return OTF2_EvtWriter_MpiCollectiveEnd(w, attributes, t, e.op, e.comm, e.root, e.sent,
                                               e.received);
    }
    OTF2_ErrorCode operator()(const event::NonBlockingCollectiveRequest& e) const {
        return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, t, e.request);
    }
    OTF2_ErrorCode operator()(const event::NonBlockingCollectiveComplete& e) const {
        const event::MpiCollectiveEnd& c = e.collective;
        return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, attributes, t, c.op, c.comm, c.root, c.sent,
                                                            c.received, e.request);
    }
    OTF2_ErrorCode operator()(const event::IoOperationBegin& e) const {
        return OTF2_EvtWriter_IoOperationBegin(w, nullptr, t, e.handle, e.mode, e.flags, e.bytes_request,
                                               e.matching_id);
    }
    OTF2_ErrorCode operator()(const event::IoOperationIssued& e) const {
        return OTF2_EvtWriter_IoOperationIssued(w, nullptr, t, e.handle, e.matching_id);
    }
    OTF2_ErrorCode operator()(const event::IoOperationComplete& e) const {
        return OTF2_EvtWriter_IoOperationComplete(w, nullptr, t, e.handle, e.bytes_result, e.matching_id);
    }
    OTF2_ErrorCode operator()(const event::RmaCollectiveBegin&) const {
        return OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, t);
    }
    OTF2_ErrorCode operator()(const event::RmaCollectiveEnd& e) const {
        return OTF2_EvtWriter_RmaCollectiveEnd(w, nullptr, t, e.op, e.level, e.window, OTF2_UNDEFINED_UINT32, 0, 0);
    }
    OTF2_ErrorCode operator()(const event::RmaWinCreate& e) const {
        return OTF2_EvtWriter_RmaWinCreate(w, nullptr, t, e.window);
    }
    OTF2_ErrorCode operator()(const event::RmaWinDestroy& e) const {
        return OTF2_EvtWriter_RmaWinDestroy(w, nullptr, t, e.window);
    }
    OTF2_ErrorCode operator()(const event::RmaGroupSync& e) const {
        return OTF2_EvtWriter_RmaGroupSync(w, nullptr, t, e.level, e.window, layout.comm_group_ids.at(e.world_ranks));
    }
    OTF2_ErrorCode operator()(const event::RmaLock& e) const {
        if (e.action == event::RmaLock::Action::Release)
            return OTF2_EvtWriter_RmaReleaseLock(w, nullptr, t, e.window, e.remote, e.lock_id);
        return OTF2_EvtWriter_RmaRequestLock(w, nullptr, t, e.window, e.remote, e.lock_id,
                                             e.exclusive ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED);
    }
    OTF2_ErrorCode operator()(const event::RmaTransfer& e) const {
        return e.put ? OTF2_EvtWriter_RmaPut(w, nullptr, t, e.window, e.remote, e.bytes, e.matching_id)
                     : OTF2_EvtWriter_RmaGet(w, nullptr, t, e.window, e.remote, e.bytes, e.matching_id);
    }
    OTF2_ErrorCode operator()(const event::RmaOpComplete& e) const {
        switch (e.at) {
        case event::RmaOpComplete::At::Origin:
            return OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, nullptr, t, e.window, e.matching_id);
        case event::RmaOpComplete::At::Target:
            return OTF2_EvtWriter_RmaOpCompleteRemote(w, nullptr, t, e.window, e.matching_id);
        case event::RmaOpComplete::At::BothEnds: break;
        }
        return OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, t, e.window, e.matching_id);
    }
    OTF2_ErrorCode operator()(const event::ThreadFork& e) const {
        return OTF2_EvtWriter_ThreadFork(w, nullptr, t, OTF2_PARADIGM_OPENMP, e.threads);
    }
    OTF2_ErrorCode operator()(const event::ThreadJoin&) const {
        return OTF2_EvtWriter_ThreadJoin(w, nullptr, t, OTF2_PARADIGM_OPENMP);
    }
    OTF2_ErrorCode operator()(const event::ThreadTeamBegin&) const {
        return OTF2_EvtWriter_ThreadTeamBegin(w, nullptr, t, team);
    }
    OTF2_ErrorCode operator()(const event::ThreadTeamEnd&) const {
        return OTF2_EvtWriter_ThreadTeamEnd(w, nullptr, t, team);
    }
    OTF2_ErrorCode operator()(const event::ThreadAcquireLock& e) const {
        return OTF2_EvtWriter_ThreadAcquireLock(w, nullptr, t, OTF2_PARADIGM_OPENMP, e.lock, e.order);
    }
    OTF2_ErrorCode operator()(const event::ThreadReleaseLock& e) const {
        return OTF2_EvtWriter_ThreadReleaseLock(w, nullptr, t, OTF2_PARADIGM_OPENMP, e.lock, e.order);
    }
    OTF2_ErrorCode operator()(const event::ThreadTask& e) const {
        switch (e.kind) {
        case event::ThreadTask::Kind::Create:
            return OTF2_EvtWriter_ThreadTaskCreate(w, nullptr, t, team, e.creating_thread, e.generation);
        case event::ThreadTask::Kind::Switch:
            return OTF2_EvtWriter_ThreadTaskSwitch(w, nullptr, t, team, e.creating_thread, e.generation);
        case event::ThreadTask::Kind::Complete: break;
        }
        return OTF2_EvtWriter_ThreadTaskComplete(w, nullptr, t, team, e.creating_thread, e.generation);
    }
};

void write_events(const ArchiveWriter& a, const TraceBuilder& trace, const Layout& layout) {
    a.check(OTF2_Archive_OpenEvtFiles(a.get()), "event files");
    for (const LocationEntry& l : all_locations(trace)) {
        const std::string what = "the events of rank " + std::to_string(l.rank) +
                                 (l.thread == 0 ? "" : " thread " + std::to_string(l.thread));
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(a.get(), l.id);
        if (!w) a.check(OTF2_ERROR_INVALID, what);
        const OTF2_CommRef team = layout.first_team == OTF2_UNDEFINED_COMM
                                      ? OTF2_UNDEFINED_COMM
                                      : layout.first_team + static_cast<OTF2_CommRef>(l.rank);
        for (const RecordedEvent& e : l.events->events()) {
            const EventAttributes attributes(a, layout, e.payload);
            a.check(std::visit(EventWriter{w, static_cast<OTF2_TimeStamp>(e.time), layout, attributes.get(), team},
                               e.payload),
                    what);
        }
        a.check(OTF2_Archive_CloseEvtWriter(a.get(), w), what);
    }
    a.check(OTF2_Archive_CloseEvtFiles(a.get()), "event files");
}

// Local definitions: one file per location, holding its clock offsets.
void write_local_definitions(const ArchiveWriter& a, const TraceBuilder& trace) {
    a.check(OTF2_Archive_OpenDefFiles(a.get()), "local definition files");
    for (const LocationEntry& l : all_locations(trace)) {
        const std::string what = "the local definitions of location " + std::to_string(l.id);
        OTF2_DefWriter* w = OTF2_Archive_GetDefWriter(a.get(), l.id);
        if (!w) a.check(OTF2_ERROR_INVALID, what);
        for (const ClockOffset& c : l.events->clock_offsets())
            a.check(OTF2_DefWriter_WriteClockOffset(w, static_cast<OTF2_TimeStamp>(c.time),
                                                    c.offset, c.stddev),
                    what);
        a.check(OTF2_Archive_CloseDefWriter(a.get(), w), what);
    }
    a.check(OTF2_Archive_CloseDefFiles(a.get()), "local definition files");
}

}  // namespace

void write_otf2_archive(const TraceBuilder& trace, const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    fs::remove(dir / "traces.otf2", ec);
    fs::remove(dir / "traces.def", ec);
    fs::remove_all(dir / "traces", ec);
    if (ec) throw Error(dir.string(), "cannot prepare the archive directory: " + ec.message());

    Layout layout(trace);
    ArchiveWriter archive(dir);
    write_events(archive, trace, layout);
    write_local_definitions(archive, trace);
    write_global_definitions(archive, trace, layout);
    archive.close();
}

}  // namespace hindsight::testing
