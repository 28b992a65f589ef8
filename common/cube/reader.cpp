#include "common/cube/reader.hpp"

#include "common/cube/anchor.hpp"
#include "common/cube/metric_files.hpp"
#include "common/cube/numbering.hpp"
#include "common/cube/tar.hpp"
#include "common/error.hpp"

namespace hindsight::cube {

namespace {

// Runs `step`, re-throwing its Error with the report's path and the member
// the problem was found in.
template <typename Step>
auto in_member(const std::string& path, const std::string& member, Step step) {
    try {
        return step();
    } catch (const Error& e) {
        throw Error(path, member + ": " + e.problem());
    }
}

// Turns the values of `metric`, stored call-tree inclusive, exclusive: each
// call path keeps its value less its children's.
void make_call_tree_exclusive(Report& report, MetricIndex metric) {
    const std::size_t width = report.locations().size();
    const auto& cnodes = report.cnodes();
    std::vector<double> exclusive(cnodes.size() * width);
    for (CnodeIndex c = 0; c < cnodes.size(); ++c)
        for (LocationIndex l = 0; l < width; ++l) exclusive[c * width + l] = report.value(metric, c, l);
    for (CnodeIndex c = 0; c < cnodes.size(); ++c) {
        if (cnodes[c].parent == kNone) continue;
        for (LocationIndex l = 0; l < width; ++l)
            exclusive[cnodes[c].parent * width + l] -= report.value(metric, c, l);
    }
    for (CnodeIndex c = 0; c < cnodes.size(); ++c)
        for (LocationIndex l = 0; l < width; ++l)
            if (exclusive[c * width + l] != report.value(metric, c, l))
                report.set_value(metric, c, l, exclusive[c * width + l]);
}

Report read_archive(const tar::Archive& archive, const std::string& where) {
    const auto anchor_text = archive.file("anchor.xml");
    if (!anchor_text) throw Error(where, "not a CUBE report (no anchor.xml in the archive)");
    Anchor anchor = in_member(where, "anchor.xml", [&] { return parse_anchor(*anchor_text); });
    Report& report = anchor.report;

    // Rows of call-tree-exclusive metrics are numbered in depth-first
    // preorder of the call tree.
    std::vector<std::uint32_t> parents;
    for (const Cnode& c : report.cnodes()) parents.push_back(c.parent);
    const std::vector<CnodeIndex> exclusive_rows = preorder(parents);
    // Call-tree-inclusive metrics have their rows in another order.
    const std::vector<CnodeIndex> inclusive_rows = siblings_first_order(parents);
    const std::size_t width = report.locations().size();

    for (MetricIndex m = 0; m < report.metrics().size(); ++m) {
        const std::string id = std::to_string(anchor.metric_file_ids[m]);
        // A derived metric has no values of its own (Cube computes them).
        if (anchor.derived[m]) continue;
        const auto index = archive.file(id + ".index");
        const auto data = archive.file(id + ".data");
        // CUBE writers leave out the members of metrics without any data.
        if (!index && !data) continue;
        if (!index || !data)
            throw Error(where, "metric " + report.metrics()[m].unique_name + " has only one of " + id + ".index and " +
                                   id + ".data");
        const std::vector<CnodeIndex>& cnode_of_row = anchor.call_tree_inclusive[m] ? inclusive_rows : exclusive_rows;
        const MetricRows rows = in_member(where, id + ".index/.data", [&] {
            return decode_metric(*index, *data, anchor.value_types[m], cnode_of_row.size(), width);
        });
        for (std::size_t i = 0; i < rows.rows.size(); ++i) {
            const CnodeIndex c = cnode_of_row[rows.rows[i]];
            for (LocationIndex l = 0; l < width; ++l) {
                const double v = rows.values[i * width + anchor.location_columns[l]];
                if (v != 0.0) report.set_value(m, c, l, v);
            }
        }
        // A stored minimum or maximum is kept as it is: subtracting callees
        // means nothing for it (value_types.hpp; cube-format.md).
        if (anchor.call_tree_inclusive[m] && aggregation_of(report.metrics()[m].data_type) == Aggregation::Sum)
            make_call_tree_exclusive(report, m);
    }
    report.set_value_kind(ValueKind::MetricInclusive);
    return std::move(anchor.report);
}

}  // namespace

Report read_cubex(const std::filesystem::path& path) { return read_archive(tar::Archive::load(path), path.string()); }

Report parse_cubex(std::string bytes, const std::string& origin) {
    return read_archive(tar::Archive::parse(std::move(bytes), origin), origin);
}

}  // namespace hindsight::cube
