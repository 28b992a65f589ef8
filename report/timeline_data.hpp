// The timeline windows the analyzer writes beside its report
// (analysis.timeline.json, schema in doc/analyzer.md): for the longest
// single waits of each pattern, all ranks' events around each. Found and
// checked for the report page, which reads the JSON text as it is.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace hindsight::report {

// Where the analyzer puts the timeline windows of the report `cubex`:
// "run/analysis.cubex" -> "run/analysis.timeline.json".
std::filesystem::path timeline_json_path(const std::filesystem::path& cubex);

// The text of `path`, checked to be one JSON object of the schema
// "hindsight-timeline" version 1. Throws hindsight::Error naming `path`
// when it cannot be read or is not such a document.
std::string read_timeline_json(const std::filesystem::path& path);

// read_timeline_json() of the file beside `cubex`, or nothing when there is
// no such file.
std::optional<std::string> find_timeline_json(const std::filesystem::path& cubex);

}  // namespace hindsight::report
