#include "common/cube/report.hpp"

#include <stdexcept>

namespace hindsight::cube {

namespace {

void require(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(what);
}

}  // namespace

MetricIndex Report::add_metric(Metric metric) {
    require(metric.parent == kNone || metric.parent < metrics_.size(),
            "cube metric: parent must be added before its children");
    require(!metric.unique_name.empty(), "cube metric: the unique name must not be empty");
    const auto index = static_cast<MetricIndex>(metrics_.size());
    require(metric_by_name_.emplace(metric.unique_name, index).second, "cube metric: unique name used twice");
    metric_children_.add(index, metric.parent);
    metrics_.push_back(std::move(metric));
    values_.emplace_back();
    not_computed_.emplace_back();
    return index;
}

void Report::set_not_computed(MetricIndex metric, std::string expression) {
    not_computed_.at(metric) = std::move(expression);
}

RegionIndex Report::add_region(Region region) {
    regions_.push_back(std::move(region));
    return static_cast<RegionIndex>(regions_.size() - 1);
}

CnodeIndex Report::add_cnode(RegionIndex region, CnodeIndex parent) {
    require(region < regions_.size(), "cube cnode: unknown region");
    require(parent == kNone || parent < cnodes_.size(), "cube cnode: parent must be added before its children");
    const auto index = static_cast<CnodeIndex>(cnodes_.size());
    cnode_children_.add(index, parent);
    cnodes_.push_back(Cnode{region, parent});
    // A new call path appends one row to every metric already holding values
    // (only those: visiting every metric per call path would be quadratic).
    for (const MetricIndex m : with_values_) values_[m].resize(values_[m].size() + locations_.size(), 0.0);
    return index;
}

SystemNodeIndex Report::add_system_node(SystemNode node) {
    require(node.parent == kNone || node.parent < system_nodes_.size(),
            "cube system tree node: parent must be added before its children");
    system_nodes_.push_back(std::move(node));
    return static_cast<SystemNodeIndex>(system_nodes_.size() - 1);
}

LocationGroupIndex Report::add_location_group(LocationGroup group) {
    require(group.parent < system_nodes_.size(), "cube location group: unknown system tree node");
    require(group.rank >= 0, "cube location group: negative rank");
    location_groups_.push_back(std::move(group));
    return static_cast<LocationGroupIndex>(location_groups_.size() - 1);
}

LocationIndex Report::add_location(Location location) {
    require(location.group < location_groups_.size(), "cube location: unknown location group");
    require(location.rank >= 0, "cube location: negative rank");
    require(with_values_.empty(), "cube location: locations must all be added before the first value");
    locations_.push_back(std::move(location));
    return static_cast<LocationIndex>(locations_.size() - 1);
}

void Report::add_topology(CartesianTopology topology) {
    require(topology.periodic.size() == topology.dims.size(), "cube topology: periodicity of every dimension needed");
    for (const auto& [location, coords] : topology.coords) {
        require(location < locations_.size(), "cube topology: unknown location");
        require(coords.size() == topology.dims.size(), "cube topology: one coordinate per dimension needed");
        for (std::size_t d = 0; d < coords.size(); ++d)
            require(coords[d] >= 0 && coords[d] < topology.dims[d], "cube topology: coordinate outside its dimension");
    }
    topologies_.push_back(std::move(topology));
}

void Report::set_attribute(std::string key, std::string value) {
    const auto [at, added] = attribute_index_.emplace(key, attributes_.size());
    if (added) attributes_.emplace_back(std::move(key), std::move(value));
    else attributes_[at->second].second = std::move(value);
}

void Report::ChildLists::add(std::uint32_t node, std::uint32_t parent) {
    // Slot 0 holds the roots, slot n + 1 the children of node n.
    first.push_back(kNone);
    last.push_back(kNone);
    next.push_back(kNone);
    const std::size_t s = slot(parent);
    if (first[s] == kNone) first[s] = node;
    else next[last[s]] = node;
    last[s] = node;
}

std::vector<std::uint32_t> Report::ChildLists::of(std::uint32_t parent) const {
    std::vector<std::uint32_t> children;
    if (parent != kNone && slot(parent) >= first.size()) return children;
    for (std::uint32_t c = head(parent); c != kNone; c = next[c]) children.push_back(c);
    return children;
}

std::vector<MetricIndex> Report::metric_children(MetricIndex metric) const { return metric_children_.of(metric); }

std::vector<CnodeIndex> Report::cnode_children(CnodeIndex cnode) const { return cnode_children_.of(cnode); }

MetricIndex Report::find_metric(std::string_view unique_name) const {
    const auto found = metric_by_name_.find(unique_name);
    return found == metric_by_name_.end() ? kNone : found->second;
}

CnodeIndex Report::find_cnode(CnodeIndex parent, RegionIndex region) const {
    if (parent != kNone && parent >= cnodes_.size()) return kNone;
    for (CnodeIndex c = cnode_children_.head(parent); c != kNone; c = cnode_children_.next[c])
        if (cnodes_[c].region == region) return c;
    return kNone;
}

CnodeIndex Report::find_cnode(const std::vector<std::string>& region_names) const {
    CnodeIndex current = kNone;
    for (const std::string& name : region_names) {
        CnodeIndex next = kNone;
        for (CnodeIndex c = cnode_children_.head(current); c != kNone && next == kNone; c = cnode_children_.next[c])
            if (regions_[cnodes_[c].region].name == name) next = c;
        if (next == kNone) return kNone;
        current = next;
    }
    return current;
}

std::size_t Report::offset(MetricIndex metric, CnodeIndex cnode, LocationIndex location) const {
    if (metric >= metrics_.size() || cnode >= cnodes_.size() || location >= locations_.size())
        throw std::out_of_range("cube value: metric, cnode or location index out of range");
    return static_cast<std::size_t>(cnode) * locations_.size() + location;
}

Report::Plane& Report::plane(MetricIndex metric) {
    Plane& p = values_.at(metric);
    if (p.empty()) {
        p.assign(cnodes_.size() * locations_.size(), 0.0);
        with_values_.push_back(metric);
    }
    return p;
}

double Report::value(MetricIndex metric, CnodeIndex cnode, LocationIndex location) const {
    const std::size_t at = offset(metric, cnode, location);
    const Plane& p = values_[metric];
    return p.empty() ? 0.0 : p[at];
}

void Report::set_value(MetricIndex metric, CnodeIndex cnode, LocationIndex location, double v) {
    const std::size_t at = offset(metric, cnode, location);
    plane(metric)[at] = v;
}

void Report::add_value(MetricIndex metric, CnodeIndex cnode, LocationIndex location, double delta) {
    const std::size_t at = offset(metric, cnode, location);
    plane(metric)[at] += delta;
}

bool Report::has_values(MetricIndex metric) const { return !values_.at(metric).empty(); }

// A sub-metric is part of its parent's stored value only when both sum up
// and are computed: a minimum, a maximum or a derived metric is stored on its
// own, whatever its place in the tree.
bool Report::adds_to_parent(MetricIndex m) const {
    const MetricIndex parent = metrics_[m].parent;
    if (parent == kNone) return false;
    const Metric& child = metrics_[m];
    const Metric& up = metrics_[parent];
    return computed(m) && computed(parent) && aggregation_of(child.data_type) == Aggregation::Sum &&
           aggregation_of(up.data_type) == Aggregation::Sum;
}

// Parents always precede their children in metrics_ (add_metric enforces
// it); both conversions rely on that order.
void Report::to_metric_inclusive() {
    if (value_kind_ == ValueKind::MetricInclusive) return;
    // Children first (descending index): when a metric is added to its
    // parent, it already includes its own sub-metrics.
    for (MetricIndex m = static_cast<MetricIndex>(metrics_.size()); m-- > 0;) {
        if (values_[m].empty() || !adds_to_parent(m)) continue;
        Plane& target = plane(metrics_[m].parent);
        const Plane& source = values_[m];
        for (std::size_t i = 0; i < source.size(); ++i) target[i] += source[i];
    }
    value_kind_ = ValueKind::MetricInclusive;
}

void Report::to_own_shares() {
    if (value_kind_ == ValueKind::OwnShares) return;
    // Parents first (ascending index): a parent subtracts each child while
    // the child still holds its inclusive value.
    for (MetricIndex m = 0; m < metrics_.size(); ++m) {
        if (values_[m].empty() || !adds_to_parent(m)) continue;
        Plane& target = plane(metrics_[m].parent);
        const Plane& source = values_[m];
        for (std::size_t i = 0; i < source.size(); ++i) target[i] -= source[i];
    }
    value_kind_ = ValueKind::OwnShares;
}

}  // namespace hindsight::cube
