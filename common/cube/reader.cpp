#include "common/cube/reader.hpp"

#include <cstdio>
#include <new>

#include <unistd.h>

#include "common/cube/anchor.hpp"
#include "common/cube/metric_files.hpp"
#include "common/cube/numbering.hpp"
#include "common/cube/tar.hpp"
#include "common/cube/value_checks.hpp"
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

std::string gigabytes(long double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1Lf GB", bytes / 1e9L);
    return text;
}

// The model holds the values of each metric that has any as a dense plane of
// call paths x locations (doubles). A report whose planes cannot fit in the
// machine's memory is refused before anything of that size is allocated: a
// few kilobytes of anchor.xml can declare a million call paths and a million
// locations.
void check_fits_in_memory(const Report& report, std::size_t metrics_with_data, const std::string& where) {
    const long double bytes = static_cast<long double>(metrics_with_data) * report.cnodes().size() *
                              report.locations().size() * sizeof(double);
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return;  // unknown: let the allocator say
    const long double memory = static_cast<long double>(pages) * page_size;
    if (bytes > memory)
        throw Error(where, "its values would need " + gigabytes(bytes) + " of memory (" +
                               std::to_string(report.cnodes().size()) + " call paths x " +
                               std::to_string(report.locations().size()) + " locations x " +
                               std::to_string(metrics_with_data) + " metrics with data), more than the machine's " +
                               gigabytes(memory));
}

Report read_archive(const tar::Archive& archive, const std::string& where) {
    const auto anchor_text = archive.file("anchor.xml");
    if (!anchor_text) throw Error(where, "not a CUBE report (no anchor.xml in the archive)");
    if (anchor_text->empty()) throw Error(where, "anchor.xml is empty");
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
    Warnings warnings(where);
    for (std::string& w : anchor.warnings) warnings.add("anchor.xml: " + std::move(w));
    NamesOnDemand names;
    std::size_t metrics_with_data = 0;
    for (MetricIndex m = 0; m < report.metrics().size(); ++m)
        if (!anchor.derived[m] && archive.file(std::to_string(anchor.metric_file_ids[m]) + ".data")) ++metrics_with_data;
    check_fits_in_memory(report, metrics_with_data, where);

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
        check_finite(report, m, warnings, names);
        if (anchor.call_tree_inclusive[m] && aggregation_of(report.metrics()[m].data_type) == Aggregation::Sum)
            make_call_tree_exclusive(report, m, warnings, names);
    }
    warnings.hand_to(report);
    report.set_value_kind(ValueKind::MetricInclusive);
    return std::move(anchor.report);
}

}  // namespace

// Memory the checks above let through can still run out (other programs
// use it too); that is said about the file like any other problem.
Report read_cubex(const std::filesystem::path& path) {
    // The files of an OTF2 trace are what users most often give instead of
    // its report: say what to do rather than that the bytes are no archive.
    const std::string extension = path.extension().string();
    if (extension == ".otf2" || extension == ".def" || extension == ".evt")
        throw Error(path.string(), "part of an OTF2 trace, not a CUBE report: analyze the trace with "
                                   "hindsight-analyze and open the analysis.cubex it writes");
    try {
        return read_archive(tar::Archive::load(path), path.string());
    } catch (const std::bad_alloc&) {
        throw Error(path.string(), "out of memory while reading the report");
    }
}

Report parse_cubex(std::string bytes, const std::string& origin) {
    try {
        return read_archive(tar::Archive::parse(std::move(bytes), origin), origin);
    } catch (const std::bad_alloc&) {
        throw Error(origin, "out of memory while reading the report");
    }
}

}  // namespace hindsight::cube
