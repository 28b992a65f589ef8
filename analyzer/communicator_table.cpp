#include "analyzer/communicator_table.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace hindsight::analyzer {
namespace {

// Members as world ranks, checked against the trace's ranks.
std::vector<int> checked_members(const Definitions& defs, CommId id, const std::string& trace_path) {
    const Communicator& comm = defs.communicators[id];
    const std::string what = "communicator " + std::to_string(id) + " ('" + defs.comm_display_name(id) + "')";
    if (comm.group >= defs.groups.size()) throw Error(trace_path, what + " has no group of members");
    const Group& group = defs.groups[comm.group];
    if (group.type == GroupType::CommSelf) return {};
    if (group.type != GroupType::CommGroup) throw Error(trace_path, what + " has members of unknown kind");
    const int ranks = defs.mpi_rank_count();
    std::vector<int> members = defs.world_ranks(id);
    for (const int m : members)
        if (m < 0 || m >= ranks)
            throw Error(trace_path, what + " has member " + (m < 0 ? std::string("beyond int") : std::to_string(m)) +
                                        ", not a rank of the trace's " + std::to_string(ranks));
    return members;
}

}  // namespace

std::vector<CommunicatorLine> communicator_table(const Definitions& defs, const analyses::CommunicatorProfile& profile,
                                                 const std::string& trace_path) {
    std::vector<CommunicatorLine> lines(defs.communicators.size());
    for (CommId id = 0; id < lines.size(); ++id) {
        CommunicatorLine& line = lines[id];
        const Communicator& comm = defs.communicators[id];
        line.id = id;
        line.name = defs.comm_display_name(id);
        line.parent = comm.parent;
        line.label = line.name;
        if (comm.parent < defs.communicators.size()) line.label += " of " + defs.comm_display_name(comm.parent);
        line.origin = communicator_origin(comm.name);
        line.topology = topology_of_creator(line.origin.creator);
    }
    for (const CartesianTopology& t : defs.cartesian_topologies) {
        if (t.comm >= lines.size()) continue;
        lines[t.comm].topology = TopologyKind::Cartesian;
        lines[t.comm].dims = t.dims;
        lines[t.comm].periodic = t.periodic;
    }
    const double seconds_per_tick = defs.clock.seconds(1);
    for (const analyses::CommOperationStats& s : profile) {
        if (s.comm >= lines.size()) throw Error(trace_path, "operations on undefined communicator " + std::to_string(s.comm));
        CommunicatorLine& line = lines[s.comm];
        OperationLine op;
        op.operation = s.region < defs.regions.size() ? defs.regions[s.region].name : "region " + std::to_string(s.region);
        op.operations = s.operations;
        op.calls = s.calls;
        op.seconds = static_cast<double>(s.time) * seconds_per_tick;
        op.waiting_seconds = static_cast<double>(s.waiting) * seconds_per_tick;
        op.bytes_sent = s.bytes_sent;
        op.bytes_received = s.bytes_received;
        line.operations += op.operations;
        line.seconds += op.seconds;
        line.waiting_seconds += op.waiting_seconds;
        line.bytes += op.bytes_sent;
        line.by_operation.push_back(std::move(op));
    }
    std::vector<CommunicatorLine> kept;
    for (CommunicatorLine& line : lines) {
        // Bad members of a communicator nothing ran on spoil nothing: it is
        // left out of the table.
        try {
            line.members = checked_members(defs, line.id, trace_path);
            line.self = defs.groups[defs.communicators[line.id].group].type == GroupType::CommSelf;
        } catch (const Error&) {
            if (line.by_operation.empty()) continue;
            throw;
        }
        if (line.self && line.by_operation.empty()) continue;
        kept.push_back(std::move(line));
    }
    make_labels_unique(kept);  // in the order of the trace's ids
    sort_by_time(kept);
    return kept;
}

}  // namespace hindsight::analyzer
