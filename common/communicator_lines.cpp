#include "common/communicator_lines.hpp"

#include <algorithm>
#include <map>
#include <ostream>

#include "common/text_fields.hpp"

namespace hindsight {
namespace {

// Sorted members as runs, "0-3, 8, 10-11"; past kRuns runs, "..." and
// the count.
std::string rank_list(std::vector<int> members) {
    constexpr std::size_t kRuns = 4;
    std::sort(members.begin(), members.end());
    std::string text;
    std::size_t runs = 0;
    for (std::size_t i = 0; i < members.size();) {
        std::size_t j = i;
        while (j + 1 < members.size() && members[j + 1] == members[j] + 1) ++j;
        if (runs == kRuns) return text + ", ... (" + std::to_string(members.size()) + " ranks)";
        text += (runs++ ? ", " : "") + std::to_string(members[i]);
        if (j > i) text += (j == i + 1 ? ", " : "-") + std::to_string(members[j]);
        i = j + 1;
    }
    return text;
}


void write_operation(std::ostream& out, const OperationLine& op) {
    out << "{\"operation\":" << json_string(op.operation) << ",\"operations\":" << op.operations
        << ",\"calls\":" << op.calls << ",\"time\":" << json_number(op.seconds) << ",\"waiting\":" << json_number(op.waiting_seconds)
        << ",\"bytes_sent\":" << op.bytes_sent << ",\"bytes_received\":" << op.bytes_received;
    if (const auto& sizes = op.message_sizes; sizes && sizes->messages > 0) {
        const double bytes = static_cast<double>(op.bytes_sent + op.bytes_received);
        out << ",\"messages\":" << sizes->messages << ",\"min_message_bytes\":" << sizes->smallest
            << ",\"max_message_bytes\":" << sizes->largest
            << ",\"mean_message_bytes\":" << json_number(bytes / static_cast<double>(sizes->messages));
    }
    out << '}';
}

}  // namespace

void make_labels_unique(std::vector<CommunicatorLine>& lines) {
    const auto disambiguate = [&](auto&& suffix) {
        std::map<std::string, std::size_t> count;
        for (const CommunicatorLine& line : lines) ++count[line.label];
        std::map<std::string, std::size_t> seen;
        for (CommunicatorLine& line : lines)
            if (count[line.label] > 1) line.label += suffix(line, ++seen[line.label]);
    };
    disambiguate([](const CommunicatorLine& line, std::size_t) {
        return line.members.empty() ? std::string() : " (ranks " + rank_list(line.members) + ")";
    });
    disambiguate([](const CommunicatorLine&, std::size_t place) { return " #" + std::to_string(place); });
}

void sort_by_time(std::vector<CommunicatorLine>& lines) {
    for (CommunicatorLine& line : lines)
        std::stable_sort(line.by_operation.begin(), line.by_operation.end(),
                         [](const OperationLine& a, const OperationLine& b) { return a.seconds > b.seconds; });
    std::stable_sort(lines.begin(), lines.end(),
                     [](const CommunicatorLine& a, const CommunicatorLine& b) { return a.seconds > b.seconds; });
}

void write_communicators_csv(std::ostream& out, const std::vector<CommunicatorLine>& table) {
    out << "communicator_id,communicator,size,topology,reorder,operation,operations,calls,time_s,waiting_s,"
           "bytes_sent,bytes_received\n";
    for (const CommunicatorLine& c : table)
        for (const OperationLine& op : c.by_operation)
            out << c.id << ',' << csv_field(c.label) << ',' << c.size() << ',' << topology_name(c.topology) << ','
                << (c.origin.reorder ? 1 : 0) << ',' << csv_field(op.operation) << ',' << op.operations << ','
                << op.calls << ',' << json_number(op.seconds) << ',' << json_number(op.waiting_seconds) << ','
                << op.bytes_sent << ',' << op.bytes_received << '\n';
}

void write_communicator_json(std::ostream& out, const CommunicatorLine& c) {
    out << "{\"id\":" << c.id << ",\"name\":" << json_string(c.name) << ",\"label\":" << json_string(c.label)
        << ",\"parent\":" << (c.parent == kNoId ? std::string("null") : std::to_string(c.parent))
        << ",\"creator\":" << json_string(c.origin.creator) << ",\"call_path\":" << json_string(c.origin.call_path)
        << ",\"size\":" << c.size() << ",\"members\":";
    json_array(out, c.members, [](int m) { return std::to_string(m); });
    out << ",\"topology\":" << json_string(topology_name(c.topology)) << ",\"reorder\":" << (c.origin.reorder ? "true" : "false")
        << ",\"dims\":";
    json_array(out, c.dims, [](int d) { return std::to_string(d); });
    out << ",\"periodic\":";
    json_array(out, c.periodic, [](bool p) { return std::string(p ? "true" : "false"); });
    out << ",\"operations\":" << c.operations << ",\"time\":" << json_number(c.seconds)
        << ",\"waiting\":" << json_number(c.waiting_seconds) << ",\"bytes_sent\":" << c.bytes << ",\"by_operation\":[";
    for (std::size_t i = 0; i < c.by_operation.size(); ++i) {
        out << (i ? ",\n    " : "\n    ");
        write_operation(out, c.by_operation[i]);
    }
    out << "]}";
}

}  // namespace hindsight
