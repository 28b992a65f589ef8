#include "collector/profile_report.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "common/byte_codec.hpp"
#include "common/error.hpp"
#include "common/metric_tree.hpp"
#include "common/time_category.hpp"
#include "common/version.hpp"

namespace hindsight::collect {
namespace {

// The paradigms and roles of the regions the collector defines
// (region_registry.hpp); others have no use in a profile.
Paradigm paradigm_of(OTF2_Paradigm paradigm) {
    switch (paradigm) {
        case OTF2_PARADIGM_USER: return Paradigm::User;
        case OTF2_PARADIGM_COMPILER: return Paradigm::Compiler;
        case OTF2_PARADIGM_MPI: return Paradigm::Mpi;
        case OTF2_PARADIGM_MEASUREMENT_SYSTEM: return Paradigm::MeasurementSystem;
        case OTF2_PARADIGM_OPENMP: return Paradigm::OpenMp;
        default: return Paradigm::Other;
    }
}

RegionRole role_of(OTF2_RegionRole role) {
    switch (role) {
        case OTF2_REGION_ROLE_FUNCTION: return RegionRole::Function;
        case OTF2_REGION_ROLE_ARTIFICIAL: return RegionRole::Artificial;
        case OTF2_REGION_ROLE_BARRIER: return RegionRole::Barrier;
        case OTF2_REGION_ROLE_COLL_ONE2ALL: return RegionRole::CollOne2All;
        case OTF2_REGION_ROLE_COLL_ALL2ONE: return RegionRole::CollAll2One;
        case OTF2_REGION_ROLE_COLL_ALL2ALL: return RegionRole::CollAll2All;
        case OTF2_REGION_ROLE_COLL_OTHER: return RegionRole::CollOther;
        case OTF2_REGION_ROLE_POINT2POINT: return RegionRole::Point2Point;
        case OTF2_REGION_ROLE_FILE_IO: return RegionRole::FileIo;
        case OTF2_REGION_ROLE_FILE_IO_METADATA: return RegionRole::FileIoMetadata;
        case OTF2_REGION_ROLE_RMA: return RegionRole::Rma;
        default: return RegionRole::Unknown;
    }
}

std::uint32_t mapped(const std::vector<std::uint64_t>& map, std::uint32_t local, std::size_t limit, int rank,
                     const char* what) {
    if (local >= map.size() || map[local] >= limit) {
        throw Error("rank " + std::to_string(rank), "its profile names " + std::string(what) + " " +
                                                        std::to_string(local) + ", which it never defined");
    }
    return static_cast<std::uint32_t>(map[local]);
}

// Rank `rank`'s call tree in `global` (region ids mapped): the global id of
// each of its call paths.
std::vector<CallPathId> merge_tree(CallTree& global, const UnifiedDefinitions& defs, const RankProfile& profile,
                                   int rank) {
    const CallTree local = CallTree::deserialize(profile.tree);
    if (profile.paths.size() != local.size()) throw Error("rank " + std::to_string(rank), "malformed profile");
    std::vector<CallPathId> to_global(local.size());
    const auto& regions = defs.region_maps[static_cast<std::size_t>(rank)];
    for (CallPathId id = 0; id < local.size(); ++id) {
        const CallTree::Node& node = local.node(id);
        if (node.parent != kNoCallPath && node.parent >= id) throw Error("rank " + std::to_string(rank), "malformed profile");
        const CallPathId parent = node.parent == kNoCallPath ? kNoCallPath : to_global[node.parent];
        to_global[id] = global.child(parent, mapped(regions, node.region, defs.regions.size(), rank, "region"));
    }
    return to_global;
}

using metrics::Metric;

// The classes of time every profile has, whatever its program called:
// computation, overhead and the MPI classes of point-to-point and
// collective communication, so that profiles of different programs
// compare class by class.
constexpr std::array kTimeClasses{Metric::Comp,          Metric::Overhead,          Metric::Mpi,
                                  Metric::MpiInitExit,   Metric::MpiMgmtComm,       Metric::MpiMgmtFile,
                                  Metric::MpiSyncCollective, Metric::MpiPoint2Point, Metric::MpiCollective,
                                  Metric::MpiIoIndividual, Metric::MpiIoCollective};

// The class of each region's exclusive time, as time_category() gives it
// in the analyzer's reports (one-sided communication, MPI-IO, ...). The
// wait-state patterns below the classes need the trace.
std::vector<Metric> region_time_classes(const UnifiedDefinitions& defs) {
    std::vector<Metric> classes;
    for (const RegionDef& r : defs.regions) {
        Region region;
        region.name = r.name;
        region.canonical_name = r.canonical_name;
        region.paradigm = paradigm_of(r.paradigm);
        region.role = role_of(r.role);
        classes.push_back(time_category(region));
    }
    return classes;
}

struct ProfileMetrics {
    // By metrics::Metric: the time metrics of the analyzer's tree a profile
    // fills (kTimeClasses and their ancestors); cube::kNone for the others.
    std::array<cube::MetricIndex, metrics::kMetricCount> time_tree{};
    cube::MetricIndex visits, min_time, max_time, bytes_sent, bytes_received, trace_events;
};

// The time tree below `time` (kTimeClasses and the regions' `classes`),
// named as the analyzer's reports name it, so that `hindsight-report
// --diff` compares a profile with an analysis class by class.
void add_time_tree(cube::Report& report, ProfileMetrics& m, const std::vector<Metric>& classes) {
    std::array<bool, metrics::kMetricCount> wanted{};
    const auto want = [&](Metric leaf) {
        for (std::optional<Metric> at = leaf; at; at = metrics::info(*at).parent) wanted[static_cast<std::size_t>(*at)] = true;
    };
    for (Metric leaf : kTimeClasses) want(leaf);
    for (Metric leaf : classes) want(leaf);
    m.time_tree.fill(cube::kNone);
    for (const metrics::MetricInfo& row : metrics::metric_table()) {  // parents first
        if (!wanted[static_cast<std::size_t>(row.metric)]) continue;
        const cube::MetricIndex parent = row.parent ? m.time_tree[static_cast<std::size_t>(*row.parent)] : cube::kNone;
        m.time_tree[static_cast<std::size_t>(row.metric)] =
            report.add_metric({std::string(row.unique_name), std::string(row.display_name), "sec",
                               std::string(row.description), "", cube::DataType::Double, parent});
    }
}

// Score-P's profile metrics, under its names, so that scripts and the Cube
// browser treat the profile as one of Score-P's; its `time` split as the
// analyzer splits it.
ProfileMetrics add_metrics(cube::Report& report, const std::vector<Metric>& classes) {
    using cube::DataType;
    const auto add = [&](const char* name, const char* display, const char* unit, const char* description,
                         DataType type) {
        return report.add_metric({name, display, unit, description, "", type, cube::kNone});
    };
    ProfileMetrics m{};
    add_time_tree(report, m, classes);
    m.visits = add("visits", "Visits", "occ", "Number of visits of each call path", DataType::Uint64);
    m.min_time = add("min_time", "Minimum Inclusive Time", "sec", "Shortest visit of each call path, callees included",
                     DataType::MinDouble);
    m.max_time = add("max_time", "Maximum Inclusive Time", "sec", "Longest visit of each call path, callees included",
                     DataType::MaxDouble);
    m.bytes_sent = add("bytes_sent", "Bytes Sent", "bytes", "Bytes the MPI calls of each call path sent",
                       DataType::Uint64);
    m.bytes_received = add("bytes_received", "Bytes Received", "bytes",
                           "Bytes the MPI calls of each call path received", DataType::Uint64);
    // Hindsight's own, for planning a trace (hindsight-report --score).
    m.trace_events = add(trace_size::kTraceEventsMetric, "Trace Events", "occ",
                         "Events besides region enter and leave that a trace would record at each call path "
                         "(messages, collectives, requests)",
                         DataType::Uint64);
    return m;
}

// Machine -> node -> "MPI Rank r" -> its thread, named as the trace
// analysis names them (the CUBE tools that compare reports match by name).
void add_system_tree(cube::Report& report, const UnifiedDefinitions& defs) {
    const cube::SystemNodeIndex machine = report.add_system_node({"machine Linux", "machine", "", cube::kNone});
    std::vector<cube::SystemNodeIndex> nodes;
    for (const std::string& node : defs.nodes) nodes.push_back(report.add_system_node({"node " + node, "node", "", machine}));
    for (std::size_t r = 0; r < defs.node_of_rank.size(); ++r) {
        const std::uint32_t node = defs.node_of_rank[r];
        const auto group = report.add_location_group(
            {"MPI Rank " + std::to_string(r), static_cast<std::int64_t>(r), node < nodes.size() ? nodes[node] : machine});
        report.add_location({"Master thread", 0, group});
    }
}

}  // namespace

RankProfile rank_profile(const CallPathProfile& profile, double seconds_per_tick) {
    return {seconds_per_tick, profile.tree().serialize(), profile.paths(), profile.comm_operations()};
}

std::vector<std::byte> serialize(const RankProfile& profile) {
    ByteWriter w;
    w.put<double>(profile.seconds_per_tick);
    w.put_span<std::uint32_t>(profile.tree);
    w.put_span<PathStats>(profile.paths);
    w.put_span<CommOperation>(profile.operations);
    return w.take();
}

RankProfile deserialize_profile(std::span<const std::byte> bytes, int rank) {
    try {
        ByteReader r(bytes);
        RankProfile profile;
        profile.seconds_per_tick = r.get<double>();
        profile.tree = r.get_vector<std::uint32_t>();
        profile.paths = r.get_vector<PathStats>();
        profile.operations = r.get_vector<CommOperation>();
        if (!r.empty()) throw Error("", "bytes after the last record");
        return profile;
    } catch (const Error&) {
        throw Error("rank " + std::to_string(rank), "malformed profile");
    }
}

cube::Report profile_report(const UnifiedDefinitions& defs, const std::vector<RankProfile>& ranks) {
    cube::Report report;
    report.set_attribute("Creator", "Hindsight " + std::string(kVersion) + " (profile)");
    const std::vector<Metric> classes = region_time_classes(defs);
    const ProfileMetrics metric = add_metrics(report, classes);
    // The time metric of each region's exclusive time.
    std::vector<cube::MetricIndex> time_of_region;
    for (const Metric c : classes) time_of_region.push_back(metric.time_tree[static_cast<std::size_t>(c)]);
    for (const RegionDef& r : defs.regions) {
        cube::Region region;
        region.name = r.name;
        region.mangled_name = r.canonical_name;
        region.source_file = r.file;
        region.paradigm = paradigm_of(r.paradigm);
        region.role = role_of(r.role);
        report.add_region(std::move(region));
    }
    CallTree tree;
    std::vector<std::vector<CallPathId>> to_global;
    for (std::size_t r = 0; r < ranks.size(); ++r) to_global.push_back(merge_tree(tree, defs, ranks[r], static_cast<int>(r)));
    for (const CallTree::Node& node : tree.nodes())
        report.add_cnode(node.region, node.parent == kNoCallPath ? cube::kNone : node.parent);
    add_system_tree(report, defs);

    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const RankProfile& profile = ranks[r];
        const auto location = static_cast<cube::LocationIndex>(r);
        const CallTree local = CallTree::deserialize(profile.tree);
        // Exclusive time: a call path's time without that of its callees.
        std::vector<std::uint64_t> callees(profile.paths.size(), 0);
        for (CallPathId id = 0; id < local.size(); ++id)
            if (const CallPathId parent = local.node(id).parent; parent != kNoCallPath)
                callees[parent] += profile.paths[id].inclusive;
        for (CallPathId id = 0; id < local.size(); ++id) {
            const PathStats& s = profile.paths[id];
            const auto cnode = static_cast<cube::CnodeIndex>(to_global[r][id]);
            const double spt = profile.seconds_per_tick;
            const std::uint64_t own = s.inclusive > callees[id] ? s.inclusive - callees[id] : 0;
            report.add_value(metric.visits, cnode, location, static_cast<double>(s.visits));
            report.add_value(time_of_region[tree.node(cnode).region], cnode, location, static_cast<double>(own) * spt);
            report.add_value(metric.bytes_sent, cnode, location, static_cast<double>(s.bytes_sent));
            report.add_value(metric.bytes_received, cnode, location, static_cast<double>(s.bytes_received));
            report.add_value(metric.trace_events, cnode, location, static_cast<double>(s.events));
            if (s.visits > 0) {
                report.set_value(metric.min_time, cnode, location, static_cast<double>(s.shortest) * spt);
                report.set_value(metric.max_time, cnode, location, static_cast<double>(s.longest) * spt);
            }
        }
    }
    return report;
}

std::vector<CommunicatorLine> profile_communicators(const UnifiedDefinitions& defs,
                                                    const std::vector<RankProfile>& ranks) {
    const auto comm_name = [&](std::size_t id) {
        const std::string& name = defs.comms[id].name;
        return name.empty() ? "Comm " + std::to_string(id) : name;
    };
    std::vector<CommunicatorLine> lines(defs.comms.size());
    for (std::size_t id = 0; id < lines.size(); ++id) {
        const GlobalComm& comm = defs.comms[id];
        CommunicatorLine& line = lines[id];
        line.id = static_cast<CommId>(id);
        line.name = comm_name(id);
        line.parent = comm.parent < defs.comms.size() ? comm.parent : kNoId;
        line.label = line.name;
        if (line.parent != kNoId) line.label += " of " + comm_name(line.parent);
        line.origin = communicator_origin(comm.name);
        line.topology = topology_of_creator(line.origin.creator);
        if (!comm.cart_dims.empty()) {
            line.topology = TopologyKind::Cartesian;
            line.dims = comm.cart_dims;
            for (const int p : comm.cart_periods) line.periodic.push_back(p != 0);
        }
        if (comm.group < defs.groups.size()) {
            const GlobalGroup& group = defs.groups[comm.group];
            line.self = group.type == OTF2_GROUP_TYPE_COMM_SELF;
            if (!line.self)
                for (const std::uint64_t m : group.members) line.members.push_back(static_cast<int>(m));
        }
    }
    // Summed over the ranks, by (communicator, operation).
    std::map<std::pair<std::uint32_t, std::uint32_t>, OperationLine> summed;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const int rank = static_cast<int>(r);
        for (const CommOperation& op : ranks[r].operations) {
            const std::uint32_t comm = mapped(defs.comm_maps[r], op.comm, lines.size(), rank, "communicator");
            const std::uint32_t region = mapped(defs.region_maps[r], op.region, defs.regions.size(), rank, "region");
            OperationLine& line = summed[{comm, region}];
            line.operation = defs.regions[region].name;
            line.operations += op.operations;
            line.calls += op.calls;
            line.seconds += static_cast<double>(op.time) * ranks[r].seconds_per_tick;
            line.bytes_sent += op.bytes_sent;
            line.bytes_received += op.bytes_received;
            if (op.messages > 0) {
                MessageSizes& sizes = line.message_sizes ? *line.message_sizes : line.message_sizes.emplace();
                sizes.smallest = sizes.messages == 0 ? op.smallest_message : std::min(sizes.smallest, op.smallest_message);
                sizes.largest = std::max(sizes.largest, op.largest_message);
                sizes.messages += op.messages;
            }
        }
    }
    for (auto& [key, op] : summed) {
        CommunicatorLine& line = lines[key.first];
        line.operations += op.operations;
        line.seconds += op.seconds;
        line.bytes += op.bytes_sent;
        line.by_operation.push_back(std::move(op));
    }
    std::vector<CommunicatorLine> kept;
    for (CommunicatorLine& line : lines) {
        if (line.self && line.by_operation.empty()) continue;
        kept.push_back(std::move(line));
    }
    make_labels_unique(kept);  // in the order of the unified ids, as the trace's
    sort_by_time(kept);
    return kept;
}

}  // namespace hindsight::collect
