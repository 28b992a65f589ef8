// The CUBE report model: what Hindsight's analyses measure, in the three
// dimensions of a CUBE 4 report -- metric tree x call tree x system tree --
// ready for the .cubex writer (writer.hpp) and back from its reader
// (reader.hpp).
//
// Value semantics. A value normally is the metric's *own share* at one call
// path and one location: exclusive along the metric tree (a child metric's
// time is not also counted in its parent) and exclusive along the call tree
// (a callee's time is not also counted in its caller). Analyses only ever add
// own shares. The .cubex file stores values differently -- each metric
// includes its sub-metrics, as the Cube browser shows a collapsed metric --
// and a report read back from a file carries those stored values until
// to_own_shares() turns them back; value_kind() says which a report holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/definitions.hpp"

namespace hindsight::cube {

// Positions in the report's vectors; they become the ids in the file. They are
// deliberately not the trace's definition ids (see common/definitions.hpp).
using MetricIndex = std::uint32_t;
using RegionIndex = std::uint32_t;
using CnodeIndex = std::uint32_t;
using SystemNodeIndex = std::uint32_t;
using LocationGroupIndex = std::uint32_t;
using LocationIndex = std::uint32_t;
inline constexpr std::uint32_t kNone = 0xffffffffu;

// How a metric's values are stored in the file. Counts (visits, bytes, ...)
// may use Uint64 (or Int64, as Scalasca's INTEGER counts); the model keeps
// doubles either way, and the writer rounds. MinDouble and MaxDouble (Score-P's
// minimum and maximum time) are doubles that aggregate by their minimum or
// maximum instead of their sum. The reader maps every other CUBE value type
// onto the nearest of these (common/cube/value_types.hpp).
enum class DataType : std::uint8_t { Double, Uint64, Int64, MinDouble, MaxDouble };

// How values of one metric combine over call paths, locations and sub-trees.
enum class Aggregation : std::uint8_t { Sum, Minimum, Maximum };

constexpr Aggregation aggregation_of(DataType type) {
    return type == DataType::MinDouble   ? Aggregation::Minimum
           : type == DataType::MaxDouble ? Aggregation::Maximum
                                         : Aggregation::Sum;
}

// Where values of both signs are added or subtracted, a result within a
// billionth of the magnitudes involved is the rounding of the arithmetic,
// not a value: the reader, the text tables and the summary take it as 0.
inline constexpr double kRoundingShare = 1e-9;
constexpr bool is_rounding_noise(double value, double magnitude) {
    return (value < 0 ? -value : value) <= kRoundingShare * magnitude;
}

// `a` and `b` combined. For a minimum or maximum, 0 stands for "no value"
// (a call path a location never visited; CUBE files store 0 there) and is
// left out, so that a minimum is not pulled down to 0 by absent cells.
constexpr double aggregate(Aggregation how, double a, double b) {
    if (how == Aggregation::Sum) return a + b;
    if (a == 0.0) return b;
    if (b == 0.0) return a;
    if (how == Aggregation::Minimum) return a < b ? a : b;
    return a > b ? a : b;
}

struct Metric {
    std::string unique_name;   // stable identifier, e.g. "mpi_latesender"
    std::string display_name;  // label in the browser, e.g. "Late Sender"
    std::string unit;          // "sec", "occ" or "bytes"
    std::string description;
    std::string url;           // documentation link; may be empty
    DataType data_type = DataType::Double;
    MetricIndex parent = kNone;  // kNone: a root of the metric tree
};

struct Region {
    std::string name;          // display name, e.g. "MPI_Send"
    std::string mangled_name;  // canonical/linker name; may equal `name`
    std::string description;
    std::string url;
    std::string source_file;   // the "module"; empty when unknown
    std::int64_t begin_line = -1;  // -1: unknown
    std::int64_t end_line = -1;
    Paradigm paradigm = Paradigm::Unknown;
    RegionRole role = RegionRole::Unknown;
};

// One call path: `region` entered from the call path `parent`.
struct Cnode {
    RegionIndex region = kNone;
    CnodeIndex parent = kNone;  // kNone: a root of the call tree
};

// A machine, a node, or any other grouping above the processes.
struct SystemNode {
    std::string name;        // e.g. "quartz10"
    std::string class_name;  // e.g. "machine", "node"
    std::string description;
    SystemNodeIndex parent = kNone;  // kNone: a root (the machine)
};

// A process (MPI rank).
struct LocationGroup {
    std::string name;  // e.g. "MPI Rank 3"
    std::int64_t rank = 0;
    SystemNodeIndex parent = kNone;
};

// A thread of a process; the values have one column per location.
struct Location {
    std::string name;  // e.g. "Master thread"
    std::int64_t rank = 0;  // thread number within its process
    LocationGroupIndex group = kNone;
};

// A Cartesian topology over the locations, for Cube's topology view (an MPI
// Cartesian communicator: its grid and each member's coordinates).
struct CartesianTopology {
    std::string name;
    std::vector<std::int64_t> dims;
    std::vector<bool> periodic;
    // The coordinates of each location in the grid, one per dimension.
    std::vector<std::pair<LocationIndex, std::vector<std::int64_t>>> coords;
};

enum class ValueKind : std::uint8_t {
    OwnShares,        // exclusive along the metric tree (the model's own form)
    MetricInclusive,  // each metric includes its sub-metrics (the file's form)
};

class Report {
public:
    // --- structure -------------------------------------------------------
    // Parents must be added before their children; an invalid reference, a
    // negative rank or an empty or repeated metric unique name throws
    // std::invalid_argument. Adding a location is only possible while
    // no value has been set, since values are laid out by location.
    MetricIndex add_metric(Metric metric);
    RegionIndex add_region(Region region);
    CnodeIndex add_cnode(RegionIndex region, CnodeIndex parent);
    SystemNodeIndex add_system_node(SystemNode node);
    LocationGroupIndex add_location_group(LocationGroup group);
    LocationIndex add_location(Location location);
    // After the locations it places: an unknown location, a coordinate
    // outside its dimension or a wrong number of them throws too.
    void add_topology(CartesianTopology topology);

    // Report-level key/value attributes (<attr> of <cube>), e.g. "Creator".
    void set_attribute(std::string key, std::string value);
    const std::vector<std::pair<std::string, std::string>>& attributes() const { return attributes_; }
    // Documentation mirrors: base URLs the browser substitutes for "@mirror@"
    // at the start of a metric's URL (as Scalasca's pattern links use it).
    void add_mirror(std::string url) { mirrors_.push_back(std::move(url)); }
    const std::vector<std::string>& mirrors() const { return mirrors_; }

    const std::vector<Metric>& metrics() const { return metrics_; }

    // A metric whose values the report does not hold: a derived metric
    // (computed by Cube from a CubePL `expression`, which we do not
    // evaluate) or one of a value type we do not interpret (no expression).
    // Its values are all 0 and must be shown as "not computed", never as data.
    void set_not_computed(MetricIndex metric, std::string expression);
    bool computed(MetricIndex metric) const { return !not_computed_.at(metric).has_value(); }
    // The CubePL expression of a derived metric; empty for others.
    std::string expression(MetricIndex metric) const { return not_computed_.at(metric).value_or(""); }
    const std::vector<Region>& regions() const { return regions_; }
    const std::vector<Cnode>& cnodes() const { return cnodes_; }
    const std::vector<SystemNode>& system_nodes() const { return system_nodes_; }
    const std::vector<LocationGroup>& location_groups() const { return location_groups_; }
    const std::vector<Location>& locations() const { return locations_; }
    const std::vector<CartesianTopology>& topologies() const { return topologies_; }

    // Children in the order they were added (kNone: the roots). Each takes
    // time in the number of children only: reports may have a million call
    // paths, and a scan of all of them per node would be quadratic.
    std::vector<MetricIndex> metric_children(MetricIndex metric) const;
    std::vector<CnodeIndex> cnode_children(CnodeIndex cnode) const;

    // Lookups by name; kNone when absent. find_metric is a hash lookup.
    MetricIndex find_metric(std::string_view unique_name) const;
    // The call path whose regions, from the root down, have these names.
    CnodeIndex find_cnode(const std::vector<std::string>& region_names) const;
    // The first child of `parent` (kNone: a root) that enters `region`;
    // kNone if absent. Walks the children of `parent`.
    CnodeIndex find_cnode(CnodeIndex parent, RegionIndex region) const;

    // --- warnings --------------------------------------------------------
    // What the reader found suspicious but not fatal (e.g. a callee larger
    // than its caller in a call-tree-inclusive metric), one line each
    // ("FILE: PROBLEM"), for the tools to show beside the values.
    void add_warning(std::string line) { warnings_.push_back(std::move(line)); }
    const std::vector<std::string>& warnings() const { return warnings_; }

    // --- values ----------------------------------------------------------
    // Unset values are 0. Out-of-range indices throw std::out_of_range.
    double value(MetricIndex metric, CnodeIndex cnode, LocationIndex location) const;
    void set_value(MetricIndex metric, CnodeIndex cnode, LocationIndex location, double v);
    void add_value(MetricIndex metric, CnodeIndex cnode, LocationIndex location, double delta);
    // True once any value of the metric was set (others are implicitly 0).
    bool has_values(MetricIndex metric) const;

    ValueKind value_kind() const { return value_kind_; }
    // Declares which kind the values already stored are (used by the reader).
    void set_value_kind(ValueKind kind) { value_kind_ = kind; }
    // Converts between the two kinds in place; a no-op if already of that kind.
    // Only sub-metrics that sum up take part (see aggregation_of).
    void to_metric_inclusive();
    void to_own_shares();
    // Whether the metric's stored value is part of its parent's: both sum up
    // and are computed (a minimum, maximum or derived metric stands alone).
    bool adds_to_parent(MetricIndex metric) const;

private:
    // One metric's values: cnode-major, one row of locations per cnode.
    // Allocated on first write, so metrics no analysis fills cost nothing.
    using Plane = std::vector<double>;
    Plane& plane(MetricIndex metric);
    std::size_t offset(MetricIndex metric, CnodeIndex cnode, LocationIndex location) const;

    // Children of every node as linked lists (first child, next sibling,
    // last child for appending in order); index kNone + 1 slot holds the
    // roots. Three words per node instead of a vector each.
    struct ChildLists {
        std::vector<std::uint32_t> first{kNone}, last{kNone}, next;
        void add(std::uint32_t node, std::uint32_t parent);
        std::vector<std::uint32_t> of(std::uint32_t parent) const;
        std::uint32_t head(std::uint32_t parent) const { return first[slot(parent)]; }
        static std::size_t slot(std::uint32_t parent) { return parent == kNone ? 0 : std::size_t{parent} + 1; }
    };

    std::vector<std::pair<std::string, std::string>> attributes_;
    std::unordered_map<std::string, std::size_t> attribute_index_;  // key -> position in attributes_
    std::vector<std::string> mirrors_;
    std::vector<Metric> metrics_;
    std::vector<Region> regions_;
    std::vector<Cnode> cnodes_;
    std::vector<SystemNode> system_nodes_;
    std::vector<LocationGroup> location_groups_;
    std::vector<Location> locations_;
    std::vector<CartesianTopology> topologies_;
    std::vector<Plane> values_;  // one per metric; empty until first written
    std::vector<MetricIndex> with_values_;  // metrics whose plane is allocated
    // Metrics by unique name, looked up with a string_view (no copy).
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, MetricIndex, NameHash, std::equal_to<>> metric_by_name_;
    ChildLists metric_children_, cnode_children_;
    std::vector<std::string> warnings_;
    std::vector<std::optional<std::string>> not_computed_;  // per metric: its expression when not computed
    ValueKind value_kind_ = ValueKind::OwnShares;
};

}  // namespace hindsight::cube
