// The communication structure the analyzer writes beside its report
// (analysis.communication.json, schema in doc/communication.md), found and
// checked for the report page. The JSON text is the interface between the
// analyzer and the page: the page reads it as it is.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace hindsight::report {

// Where the analyzer puts the communication structure of the report
// `cubex`: "run/analysis.cubex" -> "run/analysis.communication.json".
std::filesystem::path communication_json_path(const std::filesystem::path& cubex);

// The text of `path`, checked to be one JSON object of the schema
// "hindsight-communication" version 1. Throws hindsight::Error naming
// `path` when it cannot be read or is not such a document.
std::string read_communication_json(const std::filesystem::path& path);

// read_communication_json() of the file beside `cubex`, or nothing when
// there is no such file.
std::optional<std::string> find_communication_json(const std::filesystem::path& cubex);

}  // namespace hindsight::report
