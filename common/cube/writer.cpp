#include "common/cube/writer.hpp"

#include <optional>

#include "common/cube/anchor.hpp"
#include "common/cube/metric_files.hpp"
#include "common/cube/numbering.hpp"
#include "common/cube/remapping.hpp"
#include "common/cube/tar.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"

namespace hindsight::cube {

namespace {

// CUBE readers need at least one entry in every dimension, and a process
// without threads has no column to hold its values.
void check_expressible(const Report& report, const std::string& path) {
    if (report.metrics().empty()) throw Error(path, "the report has no metric");
    if (report.cnodes().empty()) throw Error(path, "the report has no call path");
    if (report.locations().empty()) throw Error(path, "the report has no location");
    std::vector<bool> has_location(report.location_groups().size(), false);
    for (const Location& l : report.locations()) has_location[l.group] = true;
    for (LocationGroupIndex g = 0; g < has_location.size(); ++g)
        if (!has_location[g]) throw Error(path, "process '" + report.location_groups()[g].name + "' has no thread");
}

// The stored values of one metric in file order: rows by file cnode id,
// columns by file location id; only non-zero rows are kept. `report` holds
// stored (metric-inclusive) values.
MetricRows stored_rows(const Report& report, const FileNumbering& numbering, MetricIndex metric) {
    MetricRows rows;
    if (!report.has_values(metric)) return rows;
    const std::size_t width = numbering.locations.size();
    std::vector<double> row(width);
    for (std::uint32_t r = 0; r < numbering.cnodes.size(); ++r) {
        const CnodeIndex c = numbering.cnodes[r];
        bool nonzero = false;
        for (std::size_t col = 0; col < width; ++col) {
            row[col] = report.value(metric, c, numbering.locations[col]);
            nonzero = nonzero || row[col] != 0.0;
        }
        if (!nonzero) continue;
        rows.rows.push_back(r);
        rows.values.insert(rows.values.end(), row.begin(), row.end());
    }
    return rows;
}

void write_archive(const Report& report, const std::filesystem::path& path) {
    const FileNumbering numbering = number_for_file(report);

    tar::Writer archive(path);
    std::string anchor = write_anchor(report, numbering);
    // See tar::Writer::add: a trailing newline moves the size off a block
    // boundary without changing the document.
    if (anchor.size() % 512 == 0) anchor += '\n';
    archive.add("anchor.xml", anchor);
    // For cube_remap2 (`scalasca -examine`), which refuses a report without
    // one; readers that do not know it skip it.
    std::string spec = write_remapping_spec(report, numbering);
    if (spec.size() % 512 == 0) spec += '\n';
    archive.add("remapping.spec", spec);
    for (std::uint32_t id = 0; id < numbering.metrics.size(); ++id) {
        const MetricIndex m = numbering.metrics[id];
        const MetricRows rows = stored_rows(report, numbering, m);
        // A metric that is zero everywhere gets no members at all, as CubeW
        // writes a metric it received no row for. An empty sparse index is
        // legal for CubeLib, but other CUBE readers (e.g. pycubexr) reject it,
        // while every reader takes absent members for all zeros.
        if (rows.rows.empty()) continue;
        // Index and data sizes are 2 modulo 4 and 8, never a block multiple.
        archive.add(std::to_string(id) + ".index", encode_index(rows.rows));
        archive.add(std::to_string(id) + ".data", encode_data(report.metrics()[m].data_type, rows.values));
    }
    archive.finish();
}

}  // namespace

void write_cubex(const Report& report, const std::filesystem::path& path) {
    check_expressible(report, path.string());
    // Own shares are summed over each metric's subtree once, children before
    // parents (Report::to_metric_inclusive), in a copy: summing each metric's
    // subtree on its own would take time in the metric tree's depth squared.
    std::optional<Report> inclusive;
    if (report.value_kind() == ValueKind::OwnShares) {
        inclusive.emplace(report);
        inclusive->to_metric_inclusive();
    }
    const Report& stored = inclusive ? *inclusive : report;
    write_output_file(path, [&](const std::filesystem::path& partial) { write_archive(stored, partial); });
}

}  // namespace hindsight::cube
