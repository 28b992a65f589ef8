#include "analyzer/communication_files.hpp"

#include <ostream>
#include <string_view>

#include "common/side_files.hpp"
#include "common/text_fields.hpp"
#include "report/table.hpp"

namespace hindsight::analyzer {
namespace {

// Cells as [from, to, messages, bytes, collective_bytes], one per line.
void write_cells(std::ostream& out, const std::vector<analyses::TrafficCell>& cells) {
    out << '[';
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const analyses::TrafficCell& c = cells[i];
        out << (i ? ",\n  [" : "\n  [") << c.from << ',' << c.to << ',' << c.messages << ',' << c.bytes << ','
            << c.collective_bytes << ']';
    }
    out << ']';
}

void write_placement(std::ostream& out, const CommunicationStructure& s) {
    const PlacementAdvice& p = s.placement;
    out << "{\"cores_per_node\":" << p.cores_per_node << ",\"cores_from\":"
        << (s.cores_from_trace ? "\"trace\"" : "\"option\"") << ",\"nodes\":" << p.nodes
        << ",\"total_bytes\":" << p.total_bytes << ",\"hosts\":";
    json_array(out, s.hosts, [](const std::string& h) { return hindsight::json_string(h); });
    out << ",\"mappings\":[";
    for (std::size_t i = 0; i < p.mappings.size(); ++i) {
        const Mapping& m = p.mappings[i];
        out << (i ? ",\n  " : "\n  ") << "{\"name\":" << hindsight::json_string(m.name) << ",\"inter_node_bytes\":" << m.inter_node_bytes
            << ",\"node_of_rank\":";
        json_array(out, m.node_of_rank, [](int n) { return std::to_string(n); });
        out << '}';
    }
    out << "]}";
}

}  // namespace

std::filesystem::path communicators_csv_path(const std::filesystem::path& report) {
    return side_file_path(report, ".communicators.csv");
}

std::filesystem::path matrix_csv_path(const std::filesystem::path& report) { return side_file_path(report, ".matrix.csv"); }

std::filesystem::path communication_json_path(const std::filesystem::path& report) {
    return side_file_path(report, ".communication.json");
}

std::filesystem::path machine_file_path(const std::filesystem::path& report) { return side_file_path(report, ".machines"); }

void write_communicators_csv(const std::filesystem::path& path, const std::vector<CommunicatorLine>& table) {
    write_text_file(path, [&](std::ostream& out) { hindsight::write_communicators_csv(out, table); });
}

void write_matrix_csv(const std::filesystem::path& path, const std::vector<analyses::TrafficCell>& matrix) {
    write_text_file(path, [&](std::ostream& out) {
        out << "from,to,messages,bytes,collective_bytes\n";
        for (const analyses::TrafficCell& c : matrix)
            out << c.from << ',' << c.to << ',' << c.messages << ',' << c.bytes << ',' << c.collective_bytes << '\n';
    });
}

void write_communication_json(const std::filesystem::path& path, const CommunicationStructure& structure,
                              const std::string& trace_path) {
    write_text_file(path, [&](std::ostream& out) {
        out << "{\"schema\":\"hindsight-communication\",\"version\":1,\"trace\":" << hindsight::json_string(trace_path)
            << ",\"time_unit\":\"s\",\n\"communicators\":[";
        for (std::size_t i = 0; i < structure.communicators.size(); ++i) {
            out << (i ? ",\n  " : "\n  ");
            write_communicator_json(out, structure.communicators[i]);
        }
        out << "\n],\n\"ranks\":" << structure.nodes.node_of_rank.size() << ",\n\"rank_matrix\":";
        write_cells(out, structure.rank_matrix);
        out << ",\n\"nodes\":";
        json_array(out, structure.nodes.names, [](const std::string& n) { return hindsight::json_string(n); });
        out << ",\n\"node_of_rank\":";
        json_array(out, structure.nodes.node_of_rank, [](int n) { return std::to_string(n); });
        out << ",\n\"node_matrix\":";
        write_cells(out, structure.node_matrix);
        out << ",\n\"placement\":";
        write_placement(out, structure);
        out << "}\n";
    });
}

void write_machine_file(const std::filesystem::path& path, const CommunicationStructure& structure) {
    const std::string text = machine_file(structure.placement.mappings.back(), structure.hosts);
    write_text_file(path, [&](std::ostream& out) { out << text; });
}

void write_communication_files(const std::filesystem::path& report, const CommunicationStructure& structure,
                               const std::string& trace_path) {
    write_communicators_csv(communicators_csv_path(report), structure.communicators);
    write_matrix_csv(matrix_csv_path(report), structure.rank_matrix);
    write_communication_json(communication_json_path(report), structure, trace_path);
    write_machine_file(machine_file_path(report), structure);
}

}  // namespace hindsight::analyzer
