// hindsight-report: writes the self-contained HTML page of a CUBE report,
// prints its values as tables (--text), or shows how two reports differ
// (--diff). Any problem ends it with one line "hindsight-report: FILE:
// PROBLEM" and status 1, and leaves no partial page behind.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>

#include "common/cube/reader.hpp"
#include "common/error.hpp"
#include "common/failure.hpp"
#include "report/communication_data.hpp"
#include "report/diff.hpp"
#include "report/diff_findings.hpp"
#include "report/findings.hpp"
#include "report/options.hpp"
#include "report/score.hpp"
#include "report/page.hpp"
#include "report/table.hpp"
#include "report/text_mode.hpp"
#include "report/timeline_data.hpp"

namespace {

using namespace hindsight;
constexpr const char* kProgram = "hindsight-report";

// A report as a title names it: with its directory, which tells the runs
// apart where every report is called analysis.cubex.
std::string run_name(const std::filesystem::path& report) {
    const std::filesystem::path directory = report.parent_path().filename();
    return directory.empty() ? report.filename().string() : (directory / report.filename()).string();
}

report::Table text_table(const cube::Report& cube, const report::Options& options, report::Overview overview) {
    // Scripts get whole call paths; a terminal the abbreviated ones.
    const auto names = options.format == report::Format::Text ? report::PathNames::Abbreviated : report::PathNames::Whole;
    if (options.metric.empty()) {
        if (options.top > 0) overview.top = options.top;
        overview.names = names;
        return report::metric_overview(cube, overview);
    }
    const cube::MetricIndex metric = cube.find_metric(options.metric);
    if (metric == cube::kNone) throw Error(options.report, "no metric '" + options.metric + "' in the report");
    if (options.call_path.empty()) return report::call_tree_table(cube, metric, options.top, names);
    const cube::CnodeIndex cnode = report::find_call_path(cube, options.call_path);
    if (cnode == cube::kNone) throw Error(options.report, "no call path '" + options.call_path + "' in the report");
    return report::rank_table(cube, metric, cnode, options.top);
}

// A side file the analyzer wrote beside the report for the page (`find`
// reads it), or nothing. The report is the input asked for: a damaged side
// file costs the page its view `view`, with a warning, not the page.
std::string side_file(const report::Options& options,
                      std::optional<std::string> (*find)(const std::filesystem::path&), const char* view) {
    if (!options.before.empty()) return {};  // a difference has no side files
    try {
        return find(options.report).value_or(std::string());
    } catch (const Error& e) {
        std::cerr << kProgram << ": warning: " << report::printable(e.what()) << "; the page has no " << view
                  << " view" << std::endl;
        return {};
    }
}

int run(const report::Options& options) {
    cube::Report cube = cube::read_cubex(options.report);
    if (options.score) {
        const report::Score score = report::score(cube, options.report);
        report::print_score(std::cout, score);
        if (!options.filter_out.empty()) {
            report::write_score_filter(options.filter_out, score);
            std::cout << "filter: " << options.filter_out << '\n';
        }
        return 0;
    }
    std::string title = std::filesystem::path(options.report).filename().string();
    report::Overview overview;
    if (!options.before.empty()) {
        const cube::Report before = cube::read_cubex(options.before);
        // What one report has alone is no change: the overview says so.
        overview.changes = true;
        for (const std::string& m : report::metrics_missing_in(cube, before))
            overview.notes.emplace(m, "only in " + options.before);
        for (const std::string& m : report::metrics_missing_in(before, cube))
            overview.notes.emplace(m, "only in " + options.report);
        cube = report::difference(before, cube);
        title = run_name(options.report) + " − " + run_name(options.before);
        cube.set_attribute(report::kDifferenceAttribute, title);  // the page's findings are the changes
    }
    // What the reader found suspicious goes to the error stream, and beside
    // the values: above the text table (not into CSV or JSON, which scripts
    // parse) and on the page. Said once the output is made, so that a later
    // error stays the only line.
    const auto warn = [&] {
        for (const std::string& warning : cube.warnings())
            std::cerr << kProgram << ": warning: " << report::printable(warning) << '\n';
    };
    if (options.text) {
        const report::Table table = text_table(cube, options, overview);
        warn();
        if (options.format == report::Format::Text)
            for (const std::string& warning : cube.warnings()) std::cout << "warning: " << report::printable(warning) << '\n';
        // A difference begins with what changed most, for a reader (not in
        // CSV or JSON, which scripts parse).
        if (overview.changes && options.format == report::Format::Text)
            report::print_diff_findings(std::cout, cube, report::diff_findings(cube));
        report::print_table(std::cout, table, options.format);
        return EXIT_SUCCESS;
    }
    report::write_page(cube, title, options.page,
                       side_file(options, report::find_communication_json, "communication"),
                       side_file(options, report::find_timeline_json, "timeline"));
    warn();
    std::cout << options.page << '\n';
    return EXIT_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
    return run_tool(kProgram, [&] {
        try {
            const auto options = report::parse_options(argc, argv, std::cout);
            return options ? run(*options) : EXIT_SUCCESS;  // nothing more after --help, --version
        } catch (const std::bad_alloc&) {
            throw;
        } catch (const std::exception& e) {
            // One line, whatever names from the file the message quotes.
            throw std::runtime_error(report::printable(e.what()));
        }
    });
}
