#include "common/cube/anchor.hpp"

#include <charconv>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/cube/metric_files.hpp"
#include "common/cube/metric_tree_xml.hpp"
#include "common/cube/names.hpp"
#include "common/cube/xml.hpp"
#include "common/error.hpp"

namespace hindsight::cube {

// --- writing ---------------------------------------------------------------
//
// CubeLib parses anchor.xml with a grammar, not a generic XML reader, so the
// layout below follows it exactly: the literal <cube version="4.4"> tag;
// <attr>s, <doc>, <metrics>, <program>, <system> in this order; regions
// before the call tree; in a system tree node <name>, <class>, then its
// location groups, then its child nodes; in a location group or location
// <name>, <rank>, <type>.

namespace {

std::string number(std::uint64_t v) { return std::to_string(v); }
std::string signed_number(std::int64_t v) { return std::to_string(v); }

void write_program(xml::Writer& w, const Report& report, const FileNumbering& numbering) {
    w.open("program");
    for (RegionIndex r = 0; r < report.regions().size(); ++r) {
        const Region& region = report.regions()[r];
        w.open("region", {{"id", number(r)},
                          {"mod", region.source_file},
                          {"begin", signed_number(region.begin_line)},
                          {"end", signed_number(region.end_line)}});
        w.leaf("name", region.name);
        w.leaf("mangled_name", region.mangled_name.empty() ? region.name : region.mangled_name);
        w.leaf("paradigm", paradigm_name(region.paradigm));
        w.leaf("role", role_name(region.role));
        w.leaf("url", region.url);
        w.leaf("descr", region.description);
        w.close();
    }
    std::vector<CnodeIndex> open;
    for (const CnodeIndex c : numbering.cnodes) {
        const Cnode& cnode = report.cnodes()[c];
        while (!open.empty() && open.back() != cnode.parent) {
            w.close();
            open.pop_back();
        }
        w.open("cnode", {{"id", number(numbering.cnode_id[c])}, {"calleeId", number(cnode.region)}});
        open.push_back(c);
    }
    for (; !open.empty(); open.pop_back()) w.close();
    w.close();
}

void write_system(xml::Writer& w, const Report& report, const FileNumbering& numbering) {
    w.open("system");
    std::vector<std::vector<LocationGroupIndex>> groups_of(report.system_nodes().size());
    for (const LocationGroupIndex g : numbering.location_groups) groups_of[report.location_groups()[g].parent].push_back(g);
    std::vector<std::vector<LocationIndex>> locations_of(report.location_groups().size());
    for (const LocationIndex l : numbering.locations) locations_of[report.locations()[l].group].push_back(l);

    std::vector<SystemNodeIndex> open;
    for (const SystemNodeIndex s : numbering.system_nodes) {
        const SystemNode& node = report.system_nodes()[s];
        while (!open.empty() && open.back() != node.parent) {
            w.close();
            open.pop_back();
        }
        w.open("systemtreenode", {{"Id", number(numbering.system_node_id[s])}});
        w.leaf("name", node.name);
        w.leaf("class", node.class_name);
        if (!node.description.empty()) w.leaf("descr", node.description);
        for (const LocationGroupIndex g : groups_of[s]) {
            const LocationGroup& group = report.location_groups()[g];
            w.open("locationgroup", {{"Id", number(numbering.location_group_id[g])}});
            w.leaf("name", group.name);
            w.leaf("rank", signed_number(group.rank));
            w.leaf("type", "process");
            for (const LocationIndex l : locations_of[g]) {
                const Location& location = report.locations()[l];
                w.open("location", {{"Id", number(numbering.location_id[l])}});
                w.leaf("name", location.name);
                w.leaf("rank", signed_number(location.rank));
                w.leaf("type", "thread");
                w.close();
            }
            w.close();
        }
        open.push_back(s);
    }
    for (; !open.empty(); open.pop_back()) w.close();
    w.open("topologies");
    for (const CartesianTopology& t : report.topologies()) {
        w.open("cart", {{"name", t.name}, {"ndims", number(t.dims.size())}});
        for (std::size_t d = 0; d < t.dims.size(); ++d)
            w.empty("dim", {{"name", "dimension " + number(d)}, {"size", signed_number(t.dims[d])},
                            {"periodic", t.periodic[d] ? "true" : "false"}});
        for (const auto& [location, coords] : t.coords) {
            std::string line = "<coord locId=\"" + number(numbering.location_id[location]) + "\">";
            for (std::size_t d = 0; d < coords.size(); ++d) line += (d ? " " : "") + signed_number(coords[d]);
            w.raw_line(line + "</coord>");
        }
        w.close();
    }
    w.close();
    w.close();
}

}  // namespace

std::string write_anchor(const Report& report, const FileNumbering& numbering) {
    xml::Writer w;
    w.raw_line("<cube version=\"4.4\">");
    for (const auto& [key, value] : report.attributes()) w.empty("attr", {{"key", key}, {"value", value}});
    write_doc_and_metrics(w, report, numbering, MetricTags::IdAndType);
    write_program(w, report, numbering);
    write_system(w, report, numbering);
    w.raw_line("</cube>");
    return w.finish();
}

// --- parsing ---------------------------------------------------------------

namespace {

class AnchorParser {
public:
    explicit AnchorParser(const xml::Document& doc) : doc_(doc) {}

    Anchor run() {
        const xml::Element& root = doc_.root();
        if (root.name != "cube") fail(root, "the root element is <" + root.name + ">, not <cube>");
        const std::string* version = root.attribute("version");
        if (version == nullptr || !version->starts_with("4.")) fail(root, "not a CUBE 4 report");

        bool seen_metrics = false, seen_program = false, seen_system = false;
        for (const std::size_t i : root.children) {
            const xml::Element& e = doc_.element(i);
            if (e.name == "attr") {
                anchor_.report.set_attribute(required(e, "key"), required(e, "value"));
            } else if (e.name == "doc") {
                parse_doc(e);
            } else if (e.name == "metrics") {
                parse_metrics(e);
                seen_metrics = true;
            } else if (e.name == "program") {
                parse_program(e);
                seen_program = true;
            } else if (e.name == "system") {
                parse_system(e);
                seen_system = true;
            }
        }
        if (!seen_metrics || !seen_program || !seen_system) fail(root, "<metrics>, <program> or <system> is missing");
        return std::move(anchor_);
    }

private:
    [[noreturn]] void fail(const xml::Element& e, const std::string& problem) const {
        throw Error("", "line " + std::to_string(e.line) + ": " + problem);
    }

    const std::string& required(const xml::Element& e, std::string_view key) const {
        const std::string* v = e.attribute(key);
        if (v == nullptr) fail(e, "<" + e.name + "> lacks the attribute " + std::string(key));
        return *v;
    }

    template <typename T>
    T integer(const xml::Element& e, std::string_view what, std::string_view text) const {
        T v{};
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
            fail(e, std::string(what) + " of <" + e.name + "> is not a valid number: '" + std::string(text) + "'");
        return v;
    }

    std::uint32_t id(const xml::Element& e, std::string_view key) const {
        return integer<std::uint32_t>(e, key, required(e, key));
    }

    // An id that numbers elements of the document, and so cannot exceed
    // their count; checked before it sizes any table.
    std::uint32_t element_id(const xml::Element& e, std::string_view key) const {
        const std::uint32_t v = id(e, key);
        if (v >= doc_.size()) fail(e, std::string(key) + " " + std::to_string(v) + " of <" + e.name + "> is out of range");
        return v;
    }

    // Text of the first child element called `name`; empty if there is none.
    const std::string& child_text(const xml::Element& e, std::string_view name) const {
        static const std::string none;
        for (const std::size_t i : e.children)
            if (doc_.element(i).name == name) return doc_.element(i).text;
        return none;
    }
    const xml::Element* child(const xml::Element& e, std::string_view name) const {
        for (const std::size_t i : e.children)
            if (doc_.element(i).name == name) return &doc_.element(i);
        return nullptr;
    }

    // Children named `name`, last first, ready to be pushed on a work stack
    // so that popping visits them in document order.
    void push_children(std::vector<std::pair<std::size_t, std::uint32_t>>& stack, const xml::Element& e,
                       std::string_view name, std::uint32_t parent) const {
        for (auto it = e.children.rbegin(); it != e.children.rend(); ++it)
            if (doc_.element(*it).name == name) stack.emplace_back(*it, parent);
    }

    // Marks `file_id` of a `what` as used; a second use is an error.
    void claim_id(std::vector<bool>& seen, const xml::Element& e, std::uint32_t file_id,
                  std::string_view what) const {
        if (file_id >= seen.size()) seen.resize(std::size_t{file_id} + 1, false);
        if (seen[file_id]) fail(e, std::string(what) + " id " + std::to_string(file_id) + " is used twice");
        seen[file_id] = true;
    }

    void parse_doc(const xml::Element& doc) {
        const xml::Element* mirrors = child(doc, "mirrors");
        if (mirrors == nullptr) return;
        for (const std::size_t i : mirrors->children)
            if (doc_.element(i).name == "murl") anchor_.report.add_mirror(doc_.element(i).text);
    }

    // cube_merge keeps both metrics of one name where its inputs define them
    // differently (e.g. another data type), and CubeLib reads such a file.
    // The model looks metrics up by name, so the later one gets a name of
    // its own ("time (2)"), and a warning says which. The next number to
    // try is kept per name, so that a file repeating one name many times is
    // still read in linear time.
    void rename_repeated(const xml::Element& e, Metric& metric) {
        const std::string original = metric.unique_name;
        std::size_t& n = next_number_[original];
        if (n == 0) n = 2;
        do {
            metric.unique_name = original + " (" + std::to_string(n++) + ")";
        } while (anchor_.report.find_metric(metric.unique_name) != kNone);
        anchor_.warnings.push_back("line " + std::to_string(e.line) + ": metric " + original +
                                   " is defined more than once; this one is read as '" + metric.unique_name + "'");
    }

    void parse_metrics(const xml::Element& metrics) {
        std::vector<bool> id_seen;
        std::vector<std::pair<std::size_t, std::uint32_t>> stack;
        push_children(stack, metrics, "metric", kNone);
        while (!stack.empty()) {
            const auto [index, parent] = stack.back();
            stack.pop_back();
            const xml::Element& e = doc_.element(index);
            const std::uint32_t file_id = element_id(e, "id");
            claim_id(id_seen, e, file_id, "metric");
            const std::string* type = e.attribute("type");
            const bool inclusive = type != nullptr && *type == "INCLUSIVE";
            // Derived metrics (PREDERIVED_INCLUSIVE, PREDERIVED_EXCLUSIVE,
            // POSTDERIVED) are computed by Cube from a CubePL expression; the
            // file holds no values for them.
            const bool derived = type != nullptr && type->find("DERIVED") != std::string::npos;
            if (type != nullptr && *type != "EXCLUSIVE" && !inclusive && !derived)
                fail(e, "metric type " + *type + " is not supported (only EXCLUSIVE, INCLUSIVE and derived metrics)");

            Metric metric;
            metric.display_name = child_text(e, "disp_name");
            metric.unique_name = child_text(e, "uniq_name");
            metric.unit = child_text(e, "uom");
            metric.url = child_text(e, "url");
            metric.description = child_text(e, "descr");
            metric.parent = parent;
            ValueType value_type;
            try {
                value_type = value_type_from_name(child_text(e, "dtype"));
            } catch (const Error& err) {
                fail(e, err.problem());
            }
            metric.data_type = value_type.model;
            if (metric.unique_name.empty()) fail(e, "metric without <uniq_name>");
            if (anchor_.report.find_metric(metric.unique_name) != kNone) rename_repeated(e, metric);
            const MetricIndex m = anchor_.report.add_metric(std::move(metric));
            if (derived || value_type.layout == ValueType::Layout::Opaque)
                anchor_.report.set_not_computed(m, derived ? child_text(e, "cubepl") : "");
            anchor_.derived.push_back(derived);
            anchor_.metric_file_ids.push_back(file_id);
            anchor_.call_tree_inclusive.push_back(inclusive);
            anchor_.value_types.push_back(value_type);
            push_children(stack, e, "metric", m);
        }
        if (anchor_.report.metrics().empty()) fail(metrics, "the report defines no metric");
    }

    void parse_program(const xml::Element& program) {
        std::vector<RegionIndex> region_of_id;  // file region id -> report index
        for (const std::size_t i : program.children) {
            const xml::Element& e = doc_.element(i);
            if (e.name != "region") continue;
            const std::uint32_t file_id = element_id(e, "id");
            if (file_id >= region_of_id.size()) region_of_id.resize(std::size_t{file_id} + 1, kNone);
            if (region_of_id[file_id] != kNone) fail(e, "region id " + std::to_string(file_id) + " is used twice");
            Region region;
            region.name = child_text(e, "name");
            region.mangled_name = child_text(e, "mangled_name");
            region.description = child_text(e, "descr");
            region.url = child_text(e, "url");
            if (const std::string* mod = e.attribute("mod")) region.source_file = *mod;
            if (const std::string* begin = e.attribute("begin")) region.begin_line = integer<std::int64_t>(e, "begin", *begin);
            if (const std::string* end = e.attribute("end")) region.end_line = integer<std::int64_t>(e, "end", *end);
            region.paradigm = paradigm_from_name(child_text(e, "paradigm"));
            region.role = role_from_name(child_text(e, "role"));
            region_of_id[file_id] = anchor_.report.add_region(std::move(region));
        }

        std::vector<bool> id_seen;
        std::vector<std::pair<std::size_t, std::uint32_t>> stack;
        push_children(stack, program, "cnode", kNone);
        while (!stack.empty()) {
            const auto [index, parent] = stack.back();
            stack.pop_back();
            const xml::Element& e = doc_.element(index);
            const std::uint32_t file_id = element_id(e, "id");
            claim_id(id_seen, e, file_id, "cnode");
            const std::uint32_t callee = id(e, "calleeId");
            if (callee >= region_of_id.size() || region_of_id[callee] == kNone)
                fail(e, "cnode " + std::to_string(file_id) + " calls the undefined region " + std::to_string(callee));
            const CnodeIndex c = anchor_.report.add_cnode(region_of_id[callee], parent);
            push_children(stack, e, "cnode", c);
        }
        if (anchor_.report.cnodes().empty()) fail(program, "the report has no call tree");
    }

    std::int64_t rank(const xml::Element& e) const {
        const std::int64_t r = integer<std::int64_t>(e, "<rank>", child_text(e, "rank"));
        if (r < 0) fail(e, "negative rank");
        return r;
    }

    // The system tree in either syntax: CUBE 4.1 and later nest
    // <systemtreenode>s (with a <class>) holding <locationgroup>s of
    // <location>s; CUBE 4.0 has the fixed levels <machine>, <node>, <process>
    // and <thread>, whose tag is their class. Both read into the same model.
    static bool is_system_node(std::string_view tag) { return tag == "systemtreenode" || tag == "machine" || tag == "node"; }
    static bool is_group(std::string_view tag) { return tag == "locationgroup" || tag == "process"; }
    static bool is_location(std::string_view tag) { return tag == "location" || tag == "thread"; }

    void push_system_nodes(std::vector<std::pair<std::size_t, std::uint32_t>>& stack, const xml::Element& e,
                           std::uint32_t parent) const {
        for (auto it = e.children.rbegin(); it != e.children.rend(); ++it)
            if (is_system_node(doc_.element(*it).name)) stack.emplace_back(*it, parent);
    }

    void parse_system(const xml::Element& system) {
        std::vector<bool> column_seen;
        std::vector<std::pair<std::size_t, std::uint32_t>> stack;
        push_system_nodes(stack, system, kNone);
        while (!stack.empty()) {
            const auto [index, parent] = stack.back();
            stack.pop_back();
            const xml::Element& e = doc_.element(index);
            SystemNode node;
            node.name = child_text(e, "name");
            node.class_name = e.name == "systemtreenode" ? child_text(e, "class") : e.name;
            node.description = child_text(e, "descr");
            node.parent = parent;
            const SystemNodeIndex s = anchor_.report.add_system_node(std::move(node));
            for (const std::size_t gi : e.children) {
                const xml::Element& ge = doc_.element(gi);
                if (!is_group(ge.name)) continue;
                const LocationGroupIndex g =
                    anchor_.report.add_location_group(LocationGroup{child_text(ge, "name"), rank(ge), s});
                for (const std::size_t li : ge.children) {
                    const xml::Element& le = doc_.element(li);
                    if (!is_location(le.name)) continue;
                    const std::uint32_t column = element_id(le, "Id");
                    claim_id(column_seen, le, column, "location");
                    anchor_.report.add_location(Location{child_text(le, "name"), rank(le), g});
                    anchor_.location_columns.push_back(column);
                }
            }
            push_system_nodes(stack, e, s);
        }
        if (anchor_.report.locations().empty()) fail(system, "the system tree has no location");
        // Columns are addressed by location id, so the ids must number them
        // without gaps.
        if (column_seen.size() != anchor_.report.locations().size())
            fail(system, "location ids do not number the locations 0.." +
                             std::to_string(anchor_.report.locations().size() - 1));
        for (const std::size_t ti : system.children)
            if (doc_.element(ti).name == "topologies")
                for (const std::size_t ci : doc_.element(ti).children)
                    if (doc_.element(ci).name == "cart") parse_cartesian(doc_.element(ci));
    }

    // A Cartesian topology: <cart name ndims> holding a <dim size periodic>
    // per dimension and a <coord locId> per location placed in it. One that
    // does not fit together (a coordinate outside its dimension, an unknown
    // location) is left out with a warning: the values are fine without it.
    void parse_cartesian(const xml::Element& cart) {
        CartesianTopology topology;
        const std::string* name = cart.attribute("name");
        topology.name = name ? *name : "";
        std::unordered_map<std::uint32_t, LocationIndex> location_of_column;
        for (LocationIndex l = 0; l < anchor_.location_columns.size(); ++l)
            location_of_column.emplace(anchor_.location_columns[l], l);
        const auto left_out = [&](const xml::Element& e, const std::string& problem) {
            anchor_.report.add_warning("line " + std::to_string(e.line) + ": the topology '" + topology.name +
                                       "' is left out: " + problem);
        };
        for (const std::size_t i : cart.children) {
            const xml::Element& e = doc_.element(i);
            if (e.name == "dim") {
                topology.dims.push_back(integer<std::int64_t>(e, "size", required(e, "size")));
                const std::string* periodic = e.attribute("periodic");
                topology.periodic.push_back(periodic && *periodic == "true");
                if (topology.dims.back() <= 0)
                    return left_out(e, "a dimension of size " + std::to_string(topology.dims.back()));
            } else if (e.name == "coord") {
                const auto location = location_of_column.find(id(e, "locId"));
                if (location == location_of_column.end()) return left_out(e, "it places an unknown location");
                std::vector<std::int64_t> coords;
                std::istringstream words(e.text);
                for (std::string word; words >> word;) coords.push_back(integer<std::int64_t>(e, "a coordinate", word));
                if (coords.size() != topology.dims.size())
                    return left_out(e, "a location's coordinates do not match its dimensions");
                for (std::size_t d = 0; d < coords.size(); ++d)
                    if (coords[d] < 0 || coords[d] >= topology.dims[d])
                        return left_out(e, "a coordinate lies outside its dimension");
                topology.coords.emplace_back(location->second, std::move(coords));
            }
        }
        anchor_.report.add_topology(std::move(topology));
    }

    const xml::Document& doc_;
    Anchor anchor_;
    std::unordered_map<std::string, std::size_t> next_number_;  // per repeated metric name
};

}  // namespace

Anchor parse_anchor(std::string_view text) {
    const xml::Document doc = xml::Document::parse(text);
    return AnchorParser(doc).run();
}

}  // namespace hindsight::cube
