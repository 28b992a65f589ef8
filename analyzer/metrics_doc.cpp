// hindsight-metrics-doc: prints the generated part of doc/metrics.md, every
// metric of the report and every wait-state pattern with its metrics, from
// the rows the analyses and the summary read (common/metric_rows.def,
// common/wait_pattern_rows.def, analyses/patterns.hpp, analyzer/summary.cpp),
// so that the documentation cannot drift from them.
// tests/layout/check_metrics_doc.py compares the output with the file and
// puts it there (`ninja metrics-doc`).
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/metrics.hpp"
#include "analyses/patterns.hpp"
#include "analyzer/summary.hpp"
#include "common/failure.hpp"

namespace {

using hindsight::analyses::Metric;

constexpr std::string_view kNone = "—";

std::string code(std::string_view text) { return "`" + std::string(text) + "`"; }

std::string id_of(std::optional<Metric> metric) {
    return metric ? code(hindsight::analyses::info(*metric).unique_name) : std::string(kNone);
}

std::string_view unit_name(hindsight::analyses::Unit unit) {
    switch (unit) {
    case hindsight::analyses::Unit::Seconds: return "seconds";
    case hindsight::analyses::Unit::Occurrences: return "occurrences";
    case hindsight::analyses::Unit::Bytes: return "bytes";
    }
    return "";
}

// A table cell holds no pipe of its own.
std::string cell(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (const std::string& part : parts) out += (out.empty() ? "" : std::string(separator)) + part;
    return out;
}

// The operations of a shape, by their MPI names.
std::string operations(hindsight::analyses::CollectiveShape shape) {
    std::vector<std::string> names;
    for (const auto& op : hindsight::analyses::kCollectiveOps)
        if (op.shape == shape) names.push_back(op.name.starts_with("MPI_") ? code(op.name) : std::string(op.name));
    return joined(names, ", ");
}

// Where the pattern's wait states arise: its shapes and their operations.
std::string arises_in(hindsight::analyses::WaitPattern pattern) {
    std::vector<std::string> shapes;
    for (const auto& shape : hindsight::analyses::kCollectiveShapes)
        if (shape.pattern == pattern) shapes.push_back(std::string(shape.name) + ": " + operations(shape.shape));
    return shapes.empty() ? "point-to-point" : joined(shapes, "; ");
}

// The summary sections that rank any of the metrics.
std::string shown_in(const std::vector<hindsight::analyzer::SummarySection>& sections,
                     const std::vector<std::optional<Metric>>& metrics) {
    std::vector<std::string> titles;
    for (const auto& section : sections) {
        bool listed = false;
        for (const Metric m : section.metrics)
            for (const std::optional<Metric> wanted : metrics) listed = listed || wanted == m;
        if (listed) titles.push_back(section.title);
    }
    return joined(titles, "; ");
}

void print_metrics(std::ostream& out) {
    out << "### Every metric\n\n"
        << "Parents before their children, in the order of the report.\n\n"
        << "| metric | name | unit | parent | description |\n|---|---|---|---|---|\n";
    for (const auto& row : hindsight::analyses::metric_table())
        out << "| " << code(row.unique_name) << " | " << cell(row.display_name) << " | " << unit_name(row.unit) << " | "
            << id_of(row.parent) << " | " << cell(row.description) << " |\n";
}

void print_patterns(std::ostream& out) {
    const auto sections = hindsight::analyzer::summary_sections();
    out << "\n### Wait-state patterns\n\n"
        << "Where each pattern arises, its wait and completion metrics, its delay costs (all, short-term, "
        << "long-term), whether a rank that waited in it is a synchronization point of the delay analysis, "
        << "whether its waiting counts as waiting (rather than as the rank's activity) in the backward "
        << "analyses, the summary sections that rank its metrics, whether the summary leaves it out while it "
        << "is small (noise), and the advice the summary gives.\n\n"
        << "| pattern | arises in | wait | completion | delay costs | synchronization point | waiting | summary | "
        << "noise | advice |\n"
        << "|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : hindsight::analyses::kWaitPatterns) {
        const std::optional<Metric> own = row.own_metric();
        if (!own) continue;
        const std::string summary = shown_in(
            sections, {row.wait, row.completion, row.delay ? std::optional(row.delay->aggregate) : std::nullopt});
        const std::string delay = row.delay ? id_of(row.delay->aggregate) + " (" + id_of(row.delay->short_term) +
                                                  ", " + id_of(row.delay->long_term) + ")"
                                            : std::string(kNone);
        const bool waiting = row.delay || row.waiting_without_delay_costs;
        out << "| " << cell(hindsight::analyses::info(*own).display_name) << " | " << arises_in(row.pattern) << " | "
            << id_of(row.wait) << " | " << id_of(row.completion) << " | " << delay << " | "
            << (row.synchronization_point ? "yes" : "no") << " | " << (waiting ? "yes" : "no") << " | "
            << summary << " | " << (row.noise_when_small ? "when small" : "no") << " | " << cell(row.advice)
            << " |\n";
    }
    const auto unresolved = hindsight::analyses::CollectiveShape::Unresolved;
    out << "\nNo wait states, shape " << hindsight::analyses::shape_info(unresolved).name << ": "
        << operations(unresolved) << ".\n";
}

}  // namespace

int main() {
    return hindsight::run_tool("hindsight-metrics-doc", [] {
        print_metrics(std::cout);
        print_patterns(std::cout);
        return std::cout.good() ? 0 : 1;
    });
}
