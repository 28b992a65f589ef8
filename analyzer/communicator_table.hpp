// The profile per communicator as the user reads it (terminal summary,
// CSV, JSON): every communicator of the trace with a recognisable name,
// its size and topology, and its operations, largest time first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyses/communication/communicator_profile.hpp"
#include "common/communicator_origin.hpp"
#include "common/definitions.hpp"

namespace hindsight::analyzer {

struct OperationLine {
    std::string operation;  // the MPI call, e.g. "MPI_Allreduce"
    std::uint64_t operations = 0;
    std::uint64_t calls = 0;
    double seconds = 0;          // summed over the participating ranks
    double waiting_seconds = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
};

struct CommunicatorLine {
    CommId id = kNoId;
    std::string name;    // the trace's name, e.g. "MPI_Comm_split @ main > setup"
    CommId parent = kNoId;
    // Name and parent, "MPI_Comm_split @ main > setup of MPI_COMM_WORLD";
    // unique in the table: communicators the same call made (the halves of
    // a split) add their members, "... of MPI_COMM_WORLD (ranks 1, 3)", and
    // those alike in that too their place, "#2".
    std::string label;
    std::vector<int> members;  // world ranks in communicator rank order; empty for MPI_COMM_SELF
    bool self = false;         // each rank's own communicator of one rank (MPI_COMM_SELF)
    std::size_t size() const { return self ? 1 : members.size(); }
    CommunicatorOrigin origin;
    TopologyKind topology = TopologyKind::None;
    std::vector<int> dims;  // Cartesian topologies whose dimensions the trace holds
    std::vector<bool> periodic;
    // Sums over the operations.
    std::uint64_t operations = 0;
    double seconds = 0;
    double waiting_seconds = 0;
    std::uint64_t bytes = 0;  // sent
    std::vector<OperationLine> by_operation;  // largest time first
};

// Every communicator of `defs` with its operations, largest time first
// (communicators without members, like MPI_COMM_SELF, only when they have
// operations). Throws hindsight::Error (context `trace_path`) for a
// communicator with operations whose members are unknown or not ranks of
// the trace; such a communicator without operations is left out.
std::vector<CommunicatorLine> communicator_table(const Definitions& defs, const analyses::CommunicatorProfile& profile,
                                                 const std::string& trace_path);

}  // namespace hindsight::analyzer
