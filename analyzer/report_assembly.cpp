#include "analyzer/report_assembly.hpp"

#include <string>

#include "analyses/metrics.hpp"
#include "analyzer/scalasca_documentation.hpp"
#include "common/cartesian_grid.hpp"
#include "common/error.hpp"
#include "common/version.hpp"
#include "trace/thread_stream_loader.hpp"

namespace hindsight::analyzer {
namespace {

std::string unit_name(analyses::Unit unit) {
    switch (unit) {
    case analyses::Unit::Seconds: return "sec";
    case analyses::Unit::Occurrences: return "occ";
    case analyses::Unit::Bytes: return "bytes";
    }
    return "";
}

void add_metrics(cube::Report& report) {
    // metric_table() keeps metric m in row m, parents first, so the
    // report's metric index of m is m itself.
    for (const analyses::MetricInfo& info : analyses::metric_table()) {
        cube::Metric m;
        m.unique_name = info.unique_name;
        m.display_name = info.display_name;
        m.unit = unit_name(info.unit);
        m.description = info.description;
        m.url = scalasca_pattern_url(info.unique_name);
        m.data_type = info.unit == analyses::Unit::Seconds ? cube::DataType::Double : cube::DataType::Uint64;
        m.parent = info.parent ? static_cast<cube::MetricIndex>(*info.parent) : cube::kNone;
        report.add_metric(std::move(m));
    }
}

// Regions the call tree uses, then the call tree itself (ids kept: parents
// precede children in a CallTree).
void add_call_tree(cube::Report& report, const trace::LocalTrace& trace) {
    const auto& regions = trace.definitions.regions;
    std::vector<cube::RegionIndex> region_index(regions.size(), cube::kNone);
    for (const CallTree::Node& node : trace.call_tree.nodes()) {
        if (region_index[node.region] != cube::kNone) continue;
        const Region& r = regions[node.region];
        cube::Region region;
        region.name = r.name;
        region.mangled_name = r.canonical_name;
        region.source_file = r.source_file;
        // OTF2 writes line 0 for "unknown", CUBE -1 (as a signed number: a
        // conditional of the unsigned line and -1 would be 4294967295, and
        // the CUBE tools would take the region for another one).
        region.begin_line = r.begin_line ? std::int64_t{r.begin_line} : std::int64_t{-1};
        region.end_line = r.end_line ? std::int64_t{r.end_line} : std::int64_t{-1};
        region.paradigm = r.paradigm;
        region.role = r.role;
        region_index[node.region] = report.add_region(std::move(region));
    }
    for (const CallTree::Node& node : trace.call_tree.nodes())
        report.add_cnode(region_index[node.region], node.parent == kNoCallPath ? cube::kNone : node.parent);
}

// Machine -> node -> "MPI Rank r" -> its thread, from the definitions. A
// node is named with its class first ("machine Linux", "node n01"), as
// Scalasca and Score-P name them: the CUBE tools that merge or compare
// reports (cube_diff, cube_merge) unify system trees by these names.
void add_system_tree(cube::Report& report, const trace::LocalTrace& trace) {
    const Definitions& defs = trace.definitions;
    for (const SystemTreeNode& n : defs.system_tree)
        report.add_system_node({n.class_name.empty() ? n.name : n.class_name + " " + n.name, n.class_name, "",
                                n.parent == kNoId ? cube::kNone : n.parent});
    const int ranks = defs.mpi_rank_count();
    for (int r = 0; r < ranks; ++r) {
        const auto location_id = defs.location_of_rank(r);
        const Location* location = nullptr;
        for (const Location& l : defs.locations)
            if (location_id && l.id == *location_id) location = &l;
        std::string group_name = "MPI Rank " + std::to_string(r);
        std::string thread_name = "Master thread";
        cube::SystemNodeIndex parent = cube::kNone;
        if (location) {
            thread_name = location->name.empty() ? thread_name : location->name;
            if (location->group < defs.location_groups.size()) {
                const LocationGroup& g = defs.location_groups[location->group];
                group_name = g.name.empty() ? group_name : g.name;
                parent = g.system_tree_parent == kNoId ? cube::kNone : g.system_tree_parent;
            }
        }
        if (parent == cube::kNone) {
            // CUBE needs a machine above every process.
            if (report.system_nodes().empty()) report.add_system_node({"machine", "machine", "", cube::kNone});
            parent = 0;
        }
        const auto group = report.add_location_group({group_name, r, parent});
        report.add_location({thread_name, 0, group});
        // The rank's OpenMP worker threads, as the loader reads them.
        if (location_id) {
            std::int64_t thread = 0;
            for (const Location& worker : trace::worker_locations(defs, *location_id))
                report.add_location({worker.name, ++thread, group});
        }
    }
}

// The location of each rank's master thread: the ranks' threads follow one
// another, masters first (as add_system_tree adds them).
std::vector<cube::LocationIndex> master_locations(const Definitions& defs) {
    std::vector<cube::LocationIndex> masters;
    cube::LocationIndex next = 0;
    for (int r = 0; r < defs.mpi_rank_count(); ++r) {
        masters.push_back(next);
        const auto location = defs.location_of_rank(r);
        next += 1 + static_cast<cube::LocationIndex>(location ? trace::worker_locations(defs, *location).size() : 0);
    }
    return masters;
}

// Cartesian communicators as Cube topologies. The ranks' locations were
// added in world rank order, so communicator rank i sits at the master of
// rank members[i]; a topology whose grid does not hold exactly its
// communicator's members is left out.
void add_topologies(cube::Report& report, const Definitions& defs) {
    const std::vector<cube::LocationIndex> masters = master_locations(defs);
    for (const CartesianTopology& t : defs.cartesian_topologies) {
        const std::vector<int> members = defs.world_ranks(t.comm);
        if (members.empty() || members.size() != cartesian_size(t.dims)) continue;
        cube::CartesianTopology topology{t.name, std::vector<std::int64_t>(t.dims.begin(), t.dims.end()), t.periodic, {}};
        bool placed = true;
        for (std::size_t i = 0; i < members.size(); ++i) {
            placed = placed && members[i] >= 0 && static_cast<std::size_t>(members[i]) < masters.size();
            if (!placed) break;
            const std::vector<std::uint32_t> coords = cartesian_coordinates(t.dims, i);
            topology.coords.push_back({masters[static_cast<std::size_t>(members[i])],
                                       std::vector<std::int64_t>(coords.begin(), coords.end())});
        }
        if (placed) report.add_topology(std::move(topology));
    }
}

}  // namespace

GatheredCubes gather_cubes(const analyses::LocalCube& cube, std::span<const analyses::LocalCube> workers,
                           MPI_Comm world, replay::ProgressWatch& watch) {
    int rank = 0, size = 1;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &size);
    std::vector<std::uint64_t> index;
    std::vector<double> value;
    const std::size_t cells = cube.values().size();
    const auto add_cells = [&](const analyses::LocalCube& c, std::uint64_t thread) {
        const auto values = c.values();
        for (std::size_t i = 0; i < values.size(); ++i)
            if (values[i] != 0.0) {
                index.push_back(thread * cells + i);
                value.push_back(values[i]);
            }
    };
    add_cells(cube, 0);
    for (std::size_t t = 0; t < workers.size(); ++t) add_cells(workers[t], t + 1);
    int count = static_cast<int>(index.size());
    std::vector<int> counts(static_cast<std::size_t>(rank == 0 ? size : 0));
    watch.complete("the report sizes of all ranks",
                   [&](auto& r) { MPI_Igather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, world, &r[0]); });

    GatheredCubes result;
    std::vector<int> displs;
    if (rank == 0) {
        result.offsets.assign(1, 0);
        for (int c : counts) {
            displs.push_back(static_cast<int>(result.offsets.back()));
            result.offsets.push_back(result.offsets.back() + static_cast<std::uint64_t>(c));
        }
        result.index.resize(result.offsets.back());
        result.value.resize(result.offsets.back());
    }
    watch.complete<2>("the reports of all ranks", [&](auto& r) {
        MPI_Igatherv(index.data(), count, MPI_UINT64_T, result.index.data(), counts.data(), displs.data(),
                     MPI_UINT64_T, 0, world, &r[0]);
        MPI_Igatherv(value.data(), count, MPI_DOUBLE, result.value.data(), counts.data(), displs.data(), MPI_DOUBLE,
                     0, world, &r[1]);
    });
    return result;
}

cube::Report assemble_report(const trace::LocalTrace& trace, const GatheredCubes& cubes) {
    cube::Report report;
    // Cube's convention, as in Scalasca's "Scalasca Trace Analyzer 2.6".
    report.set_attribute("Creator", "Hindsight " + std::string(kVersion));
    for (const std::string& mirror : scalasca_mirrors()) report.add_mirror(mirror);
    add_metrics(report);
    add_call_tree(report, trace);
    add_system_tree(report, trace);
    add_topologies(report, trace.definitions);
    const std::size_t paths = trace.call_tree.size();
    const std::uint64_t cells = paths * analyses::kMetricCount;
    const std::vector<cube::LocationIndex> masters = master_locations(trace.definitions);
    for (std::size_t r = 0; r + 1 < cubes.offsets.size(); ++r)
        for (std::uint64_t k = cubes.offsets[r]; k < cubes.offsets[r + 1]; ++k) {
            const std::uint64_t thread = cubes.index[k] / cells, cell = cubes.index[k] % cells;
            report.set_value(static_cast<cube::MetricIndex>(cell / paths), static_cast<cube::CnodeIndex>(cell % paths),
                             static_cast<cube::LocationIndex>(masters[r] + thread), cubes.value[k]);
        }
    return report;
}

}  // namespace hindsight::analyzer
