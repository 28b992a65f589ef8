// The communication structure written beside the report, for scripts and
// for the report page: CSV tables of the profile per communicator and of the
// rank-to-rank matrix, a JSON document with all of it (schema in
// doc/communication.md) and the advised machine file. All are written
// atomically (common/output_file.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/communication_structure.hpp"

namespace hindsight::analyzer {

// "DIR/analysis.cubex" -> "DIR/analysis.communicators.csv",
// "DIR/analysis.matrix.csv", "DIR/analysis.communication.json",
// "DIR/analysis.machines".
std::filesystem::path communicators_csv_path(const std::filesystem::path& report);
std::filesystem::path matrix_csv_path(const std::filesystem::path& report);
std::filesystem::path communication_json_path(const std::filesystem::path& report);
std::filesystem::path machine_file_path(const std::filesystem::path& report);

void write_communicators_csv(const std::filesystem::path& path, const std::vector<CommunicatorLine>& table);
void write_matrix_csv(const std::filesystem::path& path, const std::vector<analyses::TrafficCell>& matrix);
void write_communication_json(const std::filesystem::path& path, const CommunicationStructure& structure,
                              const std::string& trace_path);
void write_machine_file(const std::filesystem::path& path, const CommunicationStructure& structure);

// All four beside `report`.
void write_communication_files(const std::filesystem::path& report, const CommunicationStructure& structure,
                               const std::string& trace_path);

}  // namespace hindsight::analyzer
