#include "collector/definitions_writer.hpp"

#include <memory>
#include <unordered_map>

#include "common/cartesian_grid.hpp"
#include "common/receive_sources.hpp"
#include "common/error.hpp"

namespace hindsight::collect {

namespace {

struct IdMapFree {
    void operator()(OTF2_IdMap* map) const { OTF2_IdMap_Free(map); }
};

// Strings are written before everything that refers to them: a first pass
// collects them, the second looks them up (and refuses unknown ones).
class StringTable {
public:
    OTF2_StringRef ref(const std::string& s) {
        const auto it = ids_.find(s);
        if (it != ids_.end()) return it->second;
        if (frozen_) throw Error("", "string '" + s + "' missing from the definitions");
        const auto id = static_cast<OTF2_StringRef>(order_.size());
        ids_.emplace(s, id);
        order_.push_back(s);
        return id;
    }
    void write(OTF2_GlobalDefWriter* w) {
        for (std::size_t i = 0; i < order_.size(); ++i) {
            OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), order_[i].c_str());
        }
        frozen_ = true;
    }

private:
    std::unordered_map<std::string, OTF2_StringRef> ids_;
    std::vector<std::string> order_;
    bool frozen_ = false;
};

const std::string kMachine = "Linux";  // Score-P's default machine name

const std::string kMpiIo = "MPI-IO";  // Score-P's name of the I/O paradigm

// Score-P's definitions of MPI-IO: the paradigm, each file (its scope the
// machine) and each handle, named after its file, on its communicator.
void write_io_definitions(OTF2_GlobalDefWriter* w, StringTable& s, const UnifiedDefinitions& d) {
    if (d.io_files.empty()) return;
    constexpr OTF2_IoParadigmRef kParadigm = 0;
    OTF2_GlobalDefWriter_WriteIoParadigm(w, kParadigm, s.ref(kMpiIo), s.ref(kMpiIo), OTF2_IO_PARADIGM_CLASS_PARALLEL,
                                         OTF2_IO_PARADIGM_FLAG_NONE, 0, nullptr, nullptr, nullptr);
    for (std::size_t f = 0; f < d.io_files.size(); ++f)
        OTF2_GlobalDefWriter_WriteIoRegularFile(w, static_cast<OTF2_IoFileRef>(f), s.ref(d.io_files[f]), 0);
    for (std::size_t h = 0; h < d.io_handles.size(); ++h) {
        const IoHandleRecord& handle = d.io_handles[h];
        OTF2_GlobalDefWriter_WriteIoHandle(w, static_cast<OTF2_IoHandleRef>(h), s.ref(d.io_files[handle.file]),
                                           handle.file, kParadigm, OTF2_IO_HANDLE_FLAG_NONE, handle.comm,
                                           OTF2_UNDEFINED_IO_HANDLE);
    }
}

// Score-P's definitions of MPI RMA windows: each on its communicator, with
// RMA_WIN_CREATE and RMA_WIN_DESTROY events in the calls that create and
// free it.
std::string window_name(std::size_t win) { return "MPI window " + std::to_string(win); }
void write_rma_windows(OTF2_GlobalDefWriter* w, StringTable& s, const UnifiedDefinitions& d) {
    for (std::size_t win = 0; win < d.rma_windows.size(); ++win)
        OTF2_GlobalDefWriter_WriteRmaWin(w, static_cast<OTF2_RmaWinRef>(win), s.ref(window_name(win)),
                                         d.rma_windows[win], OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
}

std::string rank_name(std::size_t rank) { return "MPI Rank " + std::to_string(rank); }
// Score-P's names of a rank's threads.
std::string thread_name(std::size_t thread) {
    return thread == 0 ? "Master thread" : "OMP thread " + std::to_string(thread);
}
std::string dimension_name(std::size_t dim) { return "dimension " + std::to_string(dim); }

// The first strings: the empty one, the program's path and its arguments,
// whose ids it returns.
std::vector<OTF2_StringRef> add_program_strings(StringTable& s, const ProgramCall& program) {
    s.ref("");
    s.ref(program.path);
    std::vector<OTF2_StringRef> ids;
    for (const std::string& argument : program.arguments) ids.push_back(s.ref(argument));
    return ids;
}

void collect_strings(StringTable& s, const UnifiedDefinitions& d, const ProgramCall& program) {
    add_program_strings(s, program);
    for (const char* fixed : {"machine", "node", "MPI", "Master thread", "Comm ${id}"}) s.ref(fixed);
    s.ref(kMachine);
    for (const auto& node : d.nodes) s.ref(node);
    for (std::size_t r = 0; r < d.node_of_rank.size(); ++r) s.ref(rank_name(r));
    for (const auto& r : d.regions) {
        s.ref(r.name);
        s.ref(r.canonical_name);
        s.ref(r.file);
    }
    for (const auto& c : d.comms) s.ref(c.name);
    for (const auto& g : d.groups) s.ref(g.name);
    for (const auto& threads : d.thread_events_of_rank)
        for (std::size_t t = 1; t <= threads.size(); ++t) s.ref(thread_name(t));
    if (d.openmp) s.ref("OpenMP");
    if (d.receive_sources) {
        s.ref(kReceiveSourcesAttribute);
        s.ref(kReceiveSourcesDescription);
    }
    for (const auto& c : d.comms)
        for (std::size_t dim = 0; dim < c.cart_dims.size(); ++dim) s.ref(dimension_name(dim));
    if (!d.io_files.empty()) s.ref(kMpiIo);
    for (const auto& f : d.io_files) s.ref(f);
    for (std::size_t win = 0; win < d.rma_windows.size(); ++win) s.ref(window_name(win));
}

// Cartesian topologies as OTF2 defines them: one CartDimension per
// dimension, the CartTopology of the communicator, named like it, and the
// coordinate of each of its ranks (row-major, as MPI numbers them).
void write_cartesian_topologies(OTF2_GlobalDefWriter* w, StringTable& s, const UnifiedDefinitions& d) {
    OTF2_CartDimensionRef next_dimension = 0;
    OTF2_CartTopologyRef next_topology = 0;
    for (std::size_t c = 0; c < d.comms.size(); ++c) {
        const GlobalComm& comm = d.comms[c];
        if (comm.cart_dims.empty()) continue;
        std::vector<OTF2_CartDimensionRef> dimensions;
        for (std::size_t dim = 0; dim < comm.cart_dims.size(); ++dim) {
            const auto periodic = comm.cart_periods[dim] ? OTF2_CART_PERIODIC_TRUE : OTF2_CART_PERIODIC_FALSE;
            OTF2_GlobalDefWriter_WriteCartDimension(w, next_dimension, s.ref(dimension_name(dim)),
                                                    static_cast<std::uint32_t>(comm.cart_dims[dim]), periodic);
            dimensions.push_back(next_dimension++);
        }
        const OTF2_CartTopologyRef topology = next_topology++;
        const auto ndims = static_cast<std::uint8_t>(dimensions.size());
        OTF2_GlobalDefWriter_WriteCartTopology(w, topology, s.ref(comm.name), static_cast<OTF2_CommRef>(c), ndims,
                                               dimensions.data());
        const std::uint64_t ranks = cartesian_size(comm.cart_dims);
        for (std::uint64_t rank = 0; rank < ranks; ++rank) {
            const std::vector<std::uint32_t> coords = cartesian_coordinates(comm.cart_dims, rank);
            OTF2_GlobalDefWriter_WriteCartCoordinate(w, topology, static_cast<std::uint32_t>(rank), ndims,
                                                     coords.data());
        }
    }
}

}  // namespace

std::vector<OTF2_StringRef> argument_strings(const ProgramCall& program) {
    StringTable s;
    return add_program_strings(s, program);
}

void write_global_definitions(OTF2_GlobalDefWriter* w, const UnifiedDefinitions& d,
                              const ClockWindow& clock, const ProgramCall& program) {
    StringTable s;
    collect_strings(s, d, program);
    OTF2_GlobalDefWriter_WriteClockProperties(w, clock.ticks_per_second, clock.global_offset, clock.length,
                                              clock.realtime);
    s.write(w);
    OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, s.ref("MPI"), OTF2_PARADIGM_CLASS_PROCESS);
    OTF2_AttributeValue name_template;
    name_template.stringRef = s.ref("Comm ${id}");
    OTF2_GlobalDefWriter_WriteParadigmProperty(w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                               OTF2_TYPE_STRING, name_template);

    // System tree: machine -> node (host name) -> "MPI Rank N" -> "Master thread".
    OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, s.ref(kMachine), s.ref("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE);
    for (std::size_t n = 0; n < d.nodes.size(); ++n) {
        const auto id = static_cast<OTF2_SystemTreeNodeRef>(n + 1);
        OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, s.ref(d.nodes[n]), s.ref("node"), 0);
        OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(w, id, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY);
    }
    for (std::size_t r = 0; r < d.node_of_rank.size(); ++r) {
        const auto id = static_cast<OTF2_LocationGroupRef>(r);
        OTF2_GlobalDefWriter_WriteLocationGroup(w, id, s.ref(rank_name(r)), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                d.node_of_rank[r] + 1, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    if (d.openmp) OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_OPENMP, s.ref("OpenMP"),
                                                     OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
    // Each rank's master, then its OpenMP threads (Score-P's order and ids).
    for (std::size_t r = 0; r < d.node_of_rank.size(); ++r) {
        const auto group = static_cast<OTF2_LocationGroupRef>(r);
        OTF2_GlobalDefWriter_WriteLocation(w, r, s.ref("Master thread"), OTF2_LOCATION_TYPE_CPU_THREAD,
                                           d.events_of_rank[r], group);
        if (r >= d.thread_events_of_rank.size()) continue;
        const std::vector<std::uint64_t>& threads = d.thread_events_of_rank[r];
        for (std::size_t t = 1; t <= threads.size(); ++t) {
            OTF2_GlobalDefWriter_WriteLocation(w, thread_location(r, t), s.ref(thread_name(t)),
                                               OTF2_LOCATION_TYPE_CPU_THREAD, threads[t - 1], group);
        }
    }
    for (std::size_t i = 0; i < d.regions.size(); ++i) {
        const RegionDef& r = d.regions[i];
        OTF2_GlobalDefWriter_WriteRegion(w, static_cast<OTF2_RegionRef>(i), s.ref(r.name), s.ref(r.canonical_name),
                                         s.ref(""), r.role, r.paradigm, OTF2_REGION_FLAG_NONE,
                                         r.file.empty() ? OTF2_UNDEFINED_STRING : s.ref(r.file), 0, 0);
    }
    for (std::size_t g = 0; g < d.groups.size(); ++g) {
        const GlobalGroup& group = d.groups[g];
        OTF2_GlobalDefWriter_WriteGroup(w, static_cast<OTF2_GroupRef>(g), s.ref(group.name), group.type,
                                        group.paradigm,
                                        OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(group.members.size()),
                                        group.members.data());
    }
    for (std::size_t c = 0; c < d.comms.size(); ++c) {
        const GlobalComm& comm = d.comms[c];
        const auto id = static_cast<OTF2_CommRef>(c);
        OTF2_GlobalDefWriter_WriteComm(w, id, s.ref(comm.name), comm.group, comm.parent, OTF2_COMM_FLAG_NONE);
    }
    write_cartesian_topologies(w, s, d);
    write_io_definitions(w, s, d);
    write_rma_windows(w, s, d);
    if (d.receive_sources)
        OTF2_GlobalDefWriter_WriteAttribute(w, kReceiveSourcesAttributeId, s.ref(kReceiveSourcesAttribute),
                                            s.ref(kReceiveSourcesDescription), OTF2_TYPE_GROUP);
}

void write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type, const std::vector<std::uint64_t>& map,
                   const std::vector<std::uint64_t>& extra_local_ids) {
    if (extra_local_ids.empty()) return write_mapping(writer, type, map);
    // Local ids i < dense for the first entries, then the sparse ones.
    const std::size_t dense = map.size() - extra_local_ids.size();
    std::unique_ptr<OTF2_IdMap, IdMapFree> id_map(OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, map.size()));
    if (!id_map) return;
    for (std::size_t i = 0; i < map.size(); ++i)
        OTF2_IdMap_AddIdPair(id_map.get(), i < dense ? i : extra_local_ids[i - dense], map[i]);
    OTF2_DefWriter_WriteMappingTable(writer, type, id_map.get());
}

void write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type, const std::vector<std::uint64_t>& map) {
    bool identity = true;
    for (std::size_t i = 0; i < map.size(); ++i) identity = identity && map[i] == i;
    if (identity) return;
    std::unique_ptr<OTF2_IdMap, IdMapFree> id_map(
        OTF2_IdMap_CreateFromUint64Array(map.size(), map.data(), true));
    if (id_map) OTF2_DefWriter_WriteMappingTable(writer, type, id_map.get());
}

}  // namespace hindsight::collect
