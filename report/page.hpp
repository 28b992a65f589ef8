// The report page: one self-contained HTML file (script, styles and data
// inline, nothing fetched) that shows a CUBE report as the Cube browser
// does, with the metric, call and system trees side by side.
#pragma once

#include <filesystem>
#include <string>

#include "common/cube/report.hpp"

namespace hindsight::report {

// The whole page for `report`, titled `title` (shown as text), with the
// communication view of `communication_json` (report/communication_data.hpp)
// and the timeline view of `timeline_json` (report/timeline_data.hpp) where
// these are not empty.
std::string page_html(const cube::Report& report, const std::string& title,
                      const std::string& communication_json = {}, const std::string& timeline_json = {});

// Writes page_html() to `path` atomically (common/output_file.hpp): the
// name holds the complete page or what it held before. Throws
// hindsight::Error naming `path` when it cannot be written.
void write_page(const cube::Report& report, const std::string& title, const std::filesystem::path& path,
                const std::string& communication_json = {}, const std::string& timeline_json = {});

// Where the page of the report `cubex` goes by default: beside it, with the
// extension .html ("run/analysis.cubex" -> "run/analysis.html").
std::filesystem::path default_page_path(const std::filesystem::path& cubex);
// Where the page of a difference goes by default: beside the later report,
// with the extension .diff.html ("run2/analysis.cubex" ->
// "run2/analysis.diff.html"), never over that run's own page.
std::filesystem::path default_difference_page_path(const std::filesystem::path& after);

}  // namespace hindsight::report
