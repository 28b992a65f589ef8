// The profile per communicator written beside the report, for scripts and
// for the report page: a CSV table (one line per communicator and
// operation) and a JSON document whose schema doc/analyzer.md describes.
// Both are written atomically (common/output_file.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/communicator_table.hpp"

namespace hindsight::analyzer {

// "DIR/analysis.cubex" -> "DIR/analysis.communicators.csv" and
// "DIR/analysis.communication.json".
std::filesystem::path communicators_csv_path(const std::filesystem::path& report);
std::filesystem::path communication_json_path(const std::filesystem::path& report);

void write_communicators_csv(const std::filesystem::path& path, const std::vector<CommunicatorLine>& table);
void write_communication_json(const std::filesystem::path& path, const std::vector<CommunicatorLine>& table,
                              const std::string& trace_path);

}  // namespace hindsight::analyzer
