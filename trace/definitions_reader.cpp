#include "trace/definitions_reader.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "common/receive_sources.hpp"
#include "trace/callback_guard.hpp"
#include "trace/otf2_enums.hpp"

namespace hindsight::trace {
namespace {

// Fills TraceDefinitions from OTF2's global definition callbacks. OTF2
// writers emit every definition after the ones it refers to (strings first,
// parents before children), so references are resolved as they arrive.
class GlobalDefinitionsCollector : public CallbackGuard {
public:
    explicit GlobalDefinitionsCollector(const std::string& path) : path_(path) {}

    TraceDefinitions result;

    void clock(std::uint64_t resolution, std::uint64_t offset, std::uint64_t length, std::uint64_t realtime) {
        if (resolution == 0) fail("clock properties give a resolution of 0 ticks per second");
        result.definitions.clock = ClockProperties{resolution, offset, length};
        if (realtime != OTF2_UNDEFINED_TIMESTAMP) result.definitions.origin.start_unix_ns = realtime;
    }
    void string(OTF2_StringRef self, const char* text) {
        define(result.string_ids, self, "string");
        result.strings.emplace_back(text ? text : "");
    }
    void system_tree_node(OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef class_name,
                          OTF2_SystemTreeNodeRef parent) {
        define(system_tree_ids_, self, "system tree node");
        result.definitions.system_tree.push_back(
            {text(name), text(class_name), optional_ref(system_tree_ids_, parent, "system tree node")});
    }
    void location_group(OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_SystemTreeNodeRef parent) {
        define(location_group_ids_, self, "location group");
        result.definitions.location_groups.push_back(
            {text(name), optional_ref(system_tree_ids_, parent, "system tree node")});
    }
    void location(OTF2_LocationRef self, OTF2_StringRef name, std::uint64_t events,
                  OTF2_LocationGroupRef group) {
        define(location_ids_, self, "location");
        result.definitions.locations.push_back(
            {self, text(name), optional_ref(location_group_ids_, group, "location group"), events});
    }
    void region(OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_StringRef file,
                std::uint32_t begin_line, std::uint32_t end_line) {
        define(result.region_ids, self, "region");
        Region r;
        r.name = text(name);
        r.canonical_name = canonical == OTF2_UNDEFINED_STRING ? r.name : text(canonical);
        r.source_file = text(file);
        r.begin_line = begin_line;
        r.end_line = end_line;
        r.role = role_from_otf2(role);
        r.paradigm = paradigm_from_otf2(paradigm);
        // MPI keeps the names beginning with MPI_ for its own functions, and
        // writers define those as of paradigm MPI: one of another paradigm
        // has a damaged paradigm or name reference, and would silently lose
        // the call's MPI semantics.
        for (const std::string& n : {r.name, r.canonical_name})
            if (r.paradigm != Paradigm::Mpi && n.starts_with("MPI_"))
                fail("region " + std::to_string(self) + " '" + n + "' bears a name of MPI's but is not of paradigm MPI (paradigm " +
                     std::to_string(paradigm) + ")");
        result.definitions.regions.push_back(std::move(r));
    }
    void group(OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type, OTF2_Paradigm paradigm,
               std::uint32_t count, const std::uint64_t* members) {
        define(result.group_ids, self, "group");
        result.definitions.groups.push_back({text(name), group_type_from_otf2(type),
                                             paradigm_from_otf2(paradigm),
                                             std::vector<std::uint64_t>(members, members + count)});
    }
    // Only Hindsight's attribute of the receive sources matters; of another
    // type it is not the one its events carry, and is ignored.
    void attribute(OTF2_AttributeRef self, OTF2_StringRef name, OTF2_Type type) {
        define(attribute_ids_, self, "attribute");
        if (type == OTF2_TYPE_GROUP && text(name) == kReceiveSourcesAttribute) result.sources_attribute = self;
    }
    void comm(OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef parent) {
        define(result.comm_ids, self, "communicator");
        result.definitions.communicators.push_back({text(name), optional_ref(result.group_ids, group, "group"),
                                                    optional_ref(result.comm_ids, parent, "communicator")});
    }

    // Score-P's intercommunicators: one communicator over both groups (the
    // first's members, then the second's), whose group is made once all
    // groups are read (finish_inter_comms), since a group made now would
    // shift the dense numbering of the groups defined after it.
    void inter_comm(OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef first, OTF2_GroupRef second) {
        define(result.comm_ids, self, "communicator");
        const GroupId a = optional_ref(result.group_ids, first, "group");
        const GroupId b = optional_ref(result.group_ids, second, "group");
        if (a == kNoId || b == kNoId) fail("intercommunicator " + std::to_string(self) + " lacks one of its groups");
        inter_comms_.push_back({static_cast<CommId>(result.definitions.communicators.size()), a, b});
        result.definitions.communicators.push_back({text(name), kNoId, kNoId});
    }
    void finish_inter_comms() {
        auto& d = result.definitions;
        for (const InterComm& inter : inter_comms_) {
            Group joint{"", GroupType::CommGroup, Paradigm::Mpi, d.groups[inter.first].members};
            const auto& second = d.groups[inter.second].members;
            joint.members.insert(joint.members.end(), second.begin(), second.end());
            d.communicators[inter.comm].group = static_cast<GroupId>(d.groups.size());
            d.communicators[inter.comm].first_group_size =
                static_cast<std::uint32_t>(d.groups[inter.first].members.size());
            d.groups.push_back(std::move(joint));
        }
    }

    // Kept as the trace's comm reference, resolved where an event uses it:
    // a handle's communicator decides nothing unless a collective operation
    // on the handle needs it.
    void io_handle(OTF2_IoHandleRef self, OTF2_CommRef comm) {
        if (!result.io_handle_comms.emplace(self, comm).second)
            fail("I/O handle " + std::to_string(self) + " is defined twice");
    }

    void rma_win(OTF2_RmaWinRef self, OTF2_CommRef comm) {
        if (!result.rma_win_comms.emplace(self, comm).second)
            fail("RMA window " + std::to_string(self) + " is defined twice");
    }

    void cart_dimension(OTF2_CartDimensionRef self, std::uint32_t size, OTF2_CartPeriodicity periodicity) {
        define(cart_dimension_ids_, self, "Cartesian dimension");
        cart_dimensions_.push_back({static_cast<int>(size), periodicity == OTF2_CART_PERIODIC_TRUE});
    }
    void cart_topology(OTF2_CartTopologyRef self, OTF2_StringRef name, OTF2_CommRef comm, std::uint8_t ndims,
                       const OTF2_CartDimensionRef* dims) {
        define(cart_topology_ids_, self, "Cartesian topology");
        CartesianTopology topology{text(name), optional_ref(result.comm_ids, comm, "communicator"), {}, {}};
        for (std::uint8_t d = 0; d < ndims; ++d) {
            const std::uint32_t index = optional_ref(cart_dimension_ids_, dims[d], "Cartesian dimension");
            if (index == kNoId) fail("Cartesian topology " + std::to_string(self) + " has an undefined dimension");
            const CartDimension& dim = cart_dimensions_[index];
            topology.dims.push_back(dim.size);
            topology.periodic.push_back(dim.periodic);
        }
        result.definitions.cartesian_topologies.push_back(std::move(topology));
    }

private:
    [[noreturn]] void fail(const std::string& problem) const { throw Error(path_, problem); }

    void define(IdMap& ids, std::uint64_t id, const char* kind) {
        if (!ids.add(id)) fail(std::string(kind) + " " + std::to_string(id) + " is defined twice");
    }
    // A reference to an earlier definition; OTF2's "undefined" gives kNoId.
    std::uint32_t optional_ref(const IdMap& ids, std::uint64_t ref, const char* kind) const {
        if (ref == OTF2_UNDEFINED_UINT32 || ref == OTF2_UNDEFINED_UINT64) return kNoId;
        const auto index = ids.find(ref);
        if (!index) fail("a definition refers to undefined " + std::string(kind) + " " + std::to_string(ref));
        return *index;
    }
    std::string text(OTF2_StringRef ref) const {
        if (ref == OTF2_UNDEFINED_STRING) return {};
        const auto index = result.string_ids.find(ref);
        if (!index) fail("a definition refers to undefined string " + std::to_string(ref));
        return result.strings[*index];
    }

    std::string path_;
    IdMap system_tree_ids_;
    IdMap location_group_ids_;
    IdMap location_ids_;
    IdMap attribute_ids_;
    IdMap cart_dimension_ids_;
    IdMap cart_topology_ids_;
    struct CartDimension {
        int size;
        bool periodic;
    };
    std::vector<CartDimension> cart_dimensions_;
    struct InterComm {
        CommId comm;
        GroupId first, second;
    };
    std::vector<InterComm> inter_comms_;
};

using Collector = GlobalDefinitionsCollector;
Collector& self(void* user_data) { return *static_cast<Collector*>(user_data); }

otf2::GlobalDefCallbacks make_callbacks() {
    otf2::GlobalDefCallbacks cb(OTF2_GlobalDefReaderCallbacks_New());
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(
        cb.get(), [](void* ud, std::uint64_t resolution, std::uint64_t offset, std::uint64_t length,
                     std::uint64_t realtime) {
            return self(ud).guarded([&] { self(ud).clock(resolution, offset, length, realtime); });
        });
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb.get(), [](void* ud, OTF2_StringRef id, const char* s) {
        return self(ud).guarded([&] { self(ud).string(id, s); });
    });
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(
        cb.get(), [](void* ud, OTF2_SystemTreeNodeRef id, OTF2_StringRef name, OTF2_StringRef cls,
                     OTF2_SystemTreeNodeRef parent) {
            return self(ud).guarded([&] { self(ud).system_tree_node(id, name, cls, parent); });
        });
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(
        cb.get(), [](void* ud, OTF2_LocationGroupRef id, OTF2_StringRef name, OTF2_LocationGroupType,
                     OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef) {
            return self(ud).guarded([&] { self(ud).location_group(id, name, parent); });
        });
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(
        cb.get(), [](void* ud, OTF2_LocationRef id, OTF2_StringRef name, OTF2_LocationType,
                     std::uint64_t events, OTF2_LocationGroupRef group) {
            return self(ud).guarded([&] { self(ud).location(id, name, events, group); });
        });
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(
        cb.get(), [](void* ud, OTF2_RegionRef id, OTF2_StringRef name, OTF2_StringRef canonical,
                     OTF2_StringRef, OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag,
                     OTF2_StringRef file, std::uint32_t begin, std::uint32_t end) {
            return self(ud).guarded(
                [&] { self(ud).region(id, name, canonical, role, paradigm, file, begin, end); });
        });
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(
        cb.get(), [](void* ud, OTF2_GroupRef id, OTF2_StringRef name, OTF2_GroupType type,
                     OTF2_Paradigm paradigm, OTF2_GroupFlag, std::uint32_t n, const std::uint64_t* members) {
            return self(ud).guarded([&] { self(ud).group(id, name, type, paradigm, n, members); });
        });
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(
        cb.get(), [](void* ud, OTF2_AttributeRef id, OTF2_StringRef name, OTF2_StringRef, OTF2_Type type) {
            return self(ud).guarded([&] { self(ud).attribute(id, name, type); });
        });
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(
        cb.get(), [](void* ud, OTF2_CommRef id, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef parent,
                     OTF2_CommFlag) { return self(ud).guarded([&] { self(ud).comm(id, name, group, parent); }); });
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(
        cb.get(), [](void* ud, OTF2_CommRef id, OTF2_StringRef name, OTF2_GroupRef first, OTF2_GroupRef second,
                     OTF2_CommRef, OTF2_CommFlag) {
            return self(ud).guarded([&] { self(ud).inter_comm(id, name, first, second); });
        });
    OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(
        cb.get(), [](void* ud, OTF2_IoHandleRef id, OTF2_StringRef, OTF2_IoFileRef, OTF2_IoParadigmRef,
                     OTF2_IoHandleFlag, OTF2_CommRef comm, OTF2_IoHandleRef) {
            return self(ud).guarded([&] { self(ud).io_handle(id, comm); });
        });
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(
        cb.get(), [](void* ud, OTF2_RmaWinRef id, OTF2_StringRef, OTF2_CommRef comm, OTF2_RmaWinFlag) {
            return self(ud).guarded([&] { self(ud).rma_win(id, comm); });
        });
    OTF2_GlobalDefReaderCallbacks_SetCartDimensionCallback(
        cb.get(), [](void* ud, OTF2_CartDimensionRef id, OTF2_StringRef, std::uint32_t size,
                     OTF2_CartPeriodicity periodicity) {
            return self(ud).guarded([&] { self(ud).cart_dimension(id, size, periodicity); });
        });
    OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(
        cb.get(), [](void* ud, OTF2_CartTopologyRef id, OTF2_StringRef name, OTF2_CommRef comm, std::uint8_t ndims,
                     const OTF2_CartDimensionRef* dims) {
            return self(ud).guarded([&] { self(ud).cart_topology(id, name, comm, ndims, dims); });
        });
    return cb;
}

// The archive's creator, or nothing where it names none.
std::string creator_of(const otf2::Reader& reader) {
    char* text = nullptr;
    if (OTF2_Reader_GetCreator(reader.get(), &text) != OTF2_SUCCESS) return {};
    const std::unique_ptr<char, decltype(&std::free)> owned(text, &std::free);
    return text ? std::string(text) : std::string();
}

}  // namespace

const std::string& TraceDefinitions::string(std::uint64_t trace_id) const {
    static const std::string empty;
    const auto index = string_ids.find(trace_id);
    return index ? strings[*index] : empty;
}

namespace {

// The communicator `by_ref` names for `ref`, as a CommId.
std::optional<CommId> comm_of(const std::unordered_map<std::uint64_t, std::uint64_t>& by_ref, std::uint64_t ref,
                              const IdMap& comm_ids) {
    const auto defined = by_ref.find(ref);
    if (defined == by_ref.end() || defined->second == OTF2_UNDEFINED_COMM) return std::nullopt;
    const std::optional<std::uint32_t> comm = comm_ids.find(defined->second);
    if (!comm) return std::nullopt;
    return static_cast<CommId>(*comm);
}

}  // namespace

std::optional<CommId> TraceDefinitions::io_handle_comm(std::uint64_t handle) const {
    return comm_of(io_handle_comms, handle, comm_ids);
}

std::optional<CommId> TraceDefinitions::rma_win_comm(std::uint64_t win) const {
    return comm_of(rma_win_comms, win, comm_ids);
}

CommId TraceDefinitions::world_comm() const {
    const auto& comms = definitions.communicators;
    for (CommId c = 0; c < comms.size(); ++c)
        if (comms[c].name == "MPI_COMM_WORLD") return c;
    for (CommId c = 0; c < comms.size(); ++c)
        if (definitions.is_world(c) && definitions.groups[comms[c].group].paradigm == Paradigm::Mpi) return c;
    return kNoId;
}

TraceDefinitions read_global_definitions(const otf2::Reader& reader) {
    Collector collector(reader.path());
    otf2::GlobalDefReader defs(reader, OTF2_Reader_GetGlobalDefReader(reader.get()));
    if (!defs) reader.check(OTF2_ERROR_INVALID, "cannot read the global definitions");
    const auto callbacks = make_callbacks();
    reader.check(OTF2_Reader_RegisterGlobalDefCallbacks(reader.get(), defs.get(), callbacks.get(), &collector),
                 "cannot read the global definitions");
    std::uint64_t count = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalDefinitions(reader.get(), defs.get(), &count);
    collector.rethrow_if_interrupted();
    reader.check(code, "cannot read the global definitions");
    collector.finish_inter_comms();
    collector.result.definitions.origin.creator = creator_of(reader);
    const Definitions& definitions = collector.result.definitions;
    if (definitions.mpi_rank_count() == 0)
        throw Error(reader.path(), "the trace defines no MPI ranks (no MPI COMM_LOCATIONS group)");
    // Each rank is read from the location its entry in the group names: a
    // location the trace does not define (a damaged id) would be read
    // without its threads and its definitions.
    for (int rank = 0; rank < definitions.mpi_rank_count(); ++rank) {
        const LocationId location = *definitions.location_of_rank(rank);
        if (std::none_of(definitions.locations.begin(), definitions.locations.end(),
                         [&](const Location& l) { return l.id == location; }))
            throw Error(reader.path(), "MPI rank " + std::to_string(rank) + " is location " +
                                           std::to_string(location) + ", which the trace does not define");
    }
    return std::move(collector.result);
}

}  // namespace hindsight::trace
