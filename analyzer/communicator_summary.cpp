#include "analyzer/communicator_summary.hpp"

#include <ostream>

#include "common/time_format.hpp"

namespace hindsight::analyzer {

void print_communicators(std::ostream& out, const std::vector<CommunicatorLine>& table, double allocation_time,
                         std::size_t limit) {
    // The count is of the communicators listed below, or says how many of
    // them took time: the others are not listed.
    std::size_t with_time = 0;
    for (const CommunicatorLine& c : table) with_time += c.seconds > 0 ? 1 : 0;
    out << "Communicators taking most time (" << table.size() << " communicator" << (table.size() == 1 ? "" : "s");
    if (with_time < table.size()) out << ", " << with_time << " of them took time";
    out << "):\n";
    std::size_t shown = 0;
    for (const CommunicatorLine& c : table) {
        if (shown == limit || c.seconds <= 0) break;
        ++shown;
        out << "  " << c.label << ": " << format_seconds(c.seconds);
        if (allocation_time > 0) out << " (" << format_percent(c.seconds / allocation_time) << ")";
        out << ", " << c.size() << (c.size() == 1 ? " rank" : " ranks") << (c.self ? " each" : "");
        if (c.topology != TopologyKind::None) out << ", " << topology_name(c.topology) << " topology";
        if (c.origin.reorder) out << " (reorder)";
        out << "\n    " << c.operations << " operations, waiting " << format_seconds(c.waiting_seconds) << ", "
            << c.bytes << " bytes sent";
        if (!c.by_operation.empty()) {
            const OperationLine& top = c.by_operation.front();
            out << "; mostly " << top.operation << " (" << format_seconds(top.seconds) << ", " << top.operations
                << " operations)";
        }
        out << '\n';
    }
    if (shown == 0) out << "  none\n";
}

void print_placement(std::ostream& out, const CommunicationStructure& structure, const std::string& machine_file) {
    const PlacementAdvice& p = structure.placement;
    if (p.nodes <= 1) {
        // Nothing crosses a node, so there is nothing to advise.
        out << "Placement: every rank fits on one node of " << p.cores_per_node << " cores ("
            << (structure.cores_from_trace ? "as many as the busiest node of the trace ran" : "--cores-per-node")
            << "), no bytes cross nodes; --cores-per-node N predicts the traffic between nodes of N cores\n";
        return;
    }
    out << "Placement on " << p.nodes << " node" << (p.nodes == 1 ? "" : "s") << " of " << p.cores_per_node
        << " cores (" << (structure.cores_from_trace ? "as many as the busiest node of the trace ran" : "--cores-per-node")
        << "):\n  bytes between nodes (of " << p.total_bytes << " bytes between ranks):";
    for (const Mapping& m : p.mappings) out << (&m == &p.mappings.front() ? " " : ", ") << m.name << ' ' << m.inter_node_bytes;
    out << "\n  advised mapping: " << machine_file << " (mpiexec -f)\n";
}

}  // namespace hindsight::analyzer
