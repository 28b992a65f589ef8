#include "collector/profile_files.hpp"

#include <ostream>

#include "common/cube/writer.hpp"
#include "common/side_files.hpp"
#include "common/text_fields.hpp"

namespace hindsight::collect {
namespace {

// The analyzer's document (doc/communication.md) with what a profile knows:
// the communicators and the nodes. A profile keeps no rank-to-rank traffic,
// so the matrices are empty and there is no placement advice.
void write_communication_json(std::ostream& out, const std::vector<CommunicatorLine>& table,
                              const UnifiedDefinitions& defs, const std::string& report) {
    out << "{\"schema\":\"hindsight-communication\",\"version\":1,\"trace\":" << json_string(report)
        << ",\"time_unit\":\"s\",\n\"communicators\":[";
    for (std::size_t i = 0; i < table.size(); ++i) {
        out << (i ? ",\n  " : "\n  ");
        write_communicator_json(out, table[i]);
    }
    out << "\n],\n\"ranks\":" << defs.node_of_rank.size() << ",\n\"rank_matrix\":[],\n\"nodes\":";
    json_array(out, defs.nodes, [](const std::string& n) { return json_string(n); });
    out << ",\n\"node_of_rank\":";
    json_array(out, defs.node_of_rank, [](std::uint32_t n) { return std::to_string(n); });
    out << ",\n\"node_matrix\":[],\n\"placement\":null}\n";
}

}  // namespace

std::filesystem::path write_profile_files(const std::string& dir, const UnifiedDefinitions& defs,
                                          const std::vector<RankProfile>& ranks) {
    const std::filesystem::path report = std::filesystem::path(dir) / kProfileFile;
    const std::vector<CommunicatorLine> table = profile_communicators(defs, ranks);
    cube::write_cubex(profile_report(defs, ranks), report);
    write_text_file(side_file_path(report, ".communicators.csv"),
                    [&](std::ostream& out) { write_communicators_csv(out, table); });
    write_text_file(side_file_path(report, ".communication.json"),
                    [&](std::ostream& out) { write_communication_json(out, table, defs, report.string()); });
    return report;
}

}  // namespace hindsight::collect
