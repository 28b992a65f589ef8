#include "report/diff.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "report/findings.hpp"
#include "report/stored_values.hpp"

namespace hindsight::report {

namespace {

using cube::kNone;

// Where each index of one input lands in the difference.
struct Mapping {
    std::vector<cube::MetricIndex> metric;
    std::vector<cube::CnodeIndex> cnode;
    std::vector<cube::LocationIndex> location;
};

// Adds to `out` what of `in` it lacks and returns where everything of `in`
// is. Parents come before children in both, so each parent is mapped first.
Mapping merge_structure(cube::Report& out, const cube::Report& in) {
    Mapping map;
    for (cube::MetricIndex index = 0; index < in.metrics().size(); ++index) {
        const cube::Metric& m = in.metrics()[index];
        cube::MetricIndex at = out.find_metric(m.unique_name);
        if (at == kNone) {
            cube::Metric copy = m;
            copy.parent = m.parent == kNone ? kNone : map.metric[m.parent];
            at = out.add_metric(std::move(copy));
        }
        // A derived metric has no values to subtract in either report.
        if (!in.computed(index)) out.set_not_computed(at, in.expression(index));
        map.metric.push_back(at);
    }
    std::map<std::string, cube::RegionIndex> regions;
    for (cube::RegionIndex r = 0; r < out.regions().size(); ++r) regions.emplace(out.regions()[r].name, r);
    // Call paths of `out` by (parent, region), the first of each: a hash
    // lookup per call path, where walking the siblings would be quadratic in
    // a wide call tree.
    std::unordered_map<std::uint64_t, cube::CnodeIndex> cnode_at;
    const auto key = [](cube::CnodeIndex parent, cube::RegionIndex region) {
        return std::uint64_t{parent} << 32 | region;
    };
    for (cube::CnodeIndex c = 0; c < out.cnodes().size(); ++c)
        cnode_at.emplace(key(out.cnodes()[c].parent, out.cnodes()[c].region), c);
    for (const cube::Cnode& c : in.cnodes()) {
        const cube::Region& region = in.regions()[c.region];
        auto [found, fresh] = regions.emplace(region.name, 0);
        if (fresh) found->second = out.add_region(region);
        const cube::CnodeIndex parent = c.parent == kNone ? kNone : map.cnode[c.parent];
        auto [at, added] = cnode_at.emplace(key(parent, found->second), 0);
        if (added) at->second = out.add_cnode(found->second, parent);
        map.cnode.push_back(at->second);
    }
    std::map<std::pair<std::int64_t, std::int64_t>, cube::LocationIndex> locations;
    for (cube::LocationIndex l = 0; l < out.locations().size(); ++l)
        locations.emplace(std::pair(out.location_groups()[out.locations()[l].group].rank, out.locations()[l].rank), l);
    std::map<std::int64_t, cube::LocationGroupIndex> groups;
    for (cube::LocationGroupIndex g = 0; g < out.location_groups().size(); ++g)
        groups.emplace(out.location_groups()[g].rank, g);
    for (const cube::Location& l : in.locations()) {
        const cube::LocationGroup& group = in.location_groups()[l.group];
        auto found = locations.find({group.rank, l.rank});
        if (found == locations.end()) {
            auto g = groups.find(group.rank);
            if (g == groups.end()) {
                // A rank only this input has: under the first machine of the difference.
                if (out.system_nodes().empty()) out.add_system_node({"machine", "machine", "", kNone});
                cube::LocationGroup copy = group;
                copy.parent = 0;
                g = groups.emplace(group.rank, out.add_location_group(std::move(copy))).first;
            }
            cube::Location copy = l;
            copy.group = g->second;
            found = locations.emplace(std::pair(group.rank, l.rank), out.add_location(std::move(copy))).first;
        }
        map.location.push_back(found->second);
    }
    return map;
}

void add_values(cube::Report& out, const cube::Report& in, const Mapping& map, double sign) {
    for (cube::MetricIndex m = 0; m < in.metrics().size(); ++m) {
        if (!in.has_values(m)) continue;
        for (cube::CnodeIndex c = 0; c < in.cnodes().size(); ++c)
            for (cube::LocationIndex l = 0; l < in.locations().size(); ++l)
                if (const double v = in.value(m, c, l); v != 0.0)
                    out.add_value(map.metric[m], map.cnode[c], map.location[l], sign * v);
    }
}

}  // namespace

cube::Report difference(const cube::Report& before, const cube::Report& after) {
    cube::Report copy_a, copy_b;
    const cube::Report& a = stored_values(before, copy_a);
    const cube::Report& b = stored_values(after, copy_b);
    cube::Report out;
    for (const auto& [key, value] : b.attributes())
        if (key != kWallClockAttribute && key != kActivityGraphAttribute) out.set_attribute(key, value);
    for (const std::string& mirror : b.mirrors()) out.add_mirror(mirror);
    for (const cube::SystemNode& s : b.system_nodes()) out.add_system_node(s);
    for (const cube::LocationGroup& g : b.location_groups()) out.add_location_group(g);
    // The structure first (locations cannot be added once values exist).
    const Mapping from_b = merge_structure(out, b);
    const Mapping from_a = merge_structure(out, a);
    add_values(out, b, from_b, 1.0);
    add_values(out, a, from_a, -1.0);
    out.set_value_kind(cube::ValueKind::MetricInclusive);
    // What was suspicious in either input is so in their difference.
    for (const cube::Report* input : {&a, &b})
        for (const std::string& warning : input->warnings()) out.add_warning(warning);
    return out;
}

std::vector<std::string> metrics_missing_in(const cube::Report& other, const cube::Report& of) {
    std::vector<std::string> missing;
    for (const cube::Metric& m : of.metrics())
        if (other.find_metric(m.unique_name) == kNone) missing.push_back(m.unique_name);
    return missing;
}

}  // namespace hindsight::report
