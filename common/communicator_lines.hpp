// The profile per communicator as the user reads it (terminal summary,
// CSV, JSON): every communicator with a recognisable name, its size and
// topology, and its operations, largest time first. The analyzer makes it
// of a trace, the collector of a profile; both write it with the writers
// below, so that the files beside a trace analysis and beside a profile
// read alike (schema in doc/communication.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "common/communicator_origin.hpp"
#include "common/definitions.hpp"

namespace hindsight {

// The point-to-point messages of an operation and their sizes (a profile
// keeps them; a trace analysis does not count them).
struct MessageSizes {
    std::uint64_t messages = 0;
    std::uint64_t smallest = 0;  // bytes
    std::uint64_t largest = 0;
};

struct OperationLine {
    std::string operation;  // the MPI call, e.g. "MPI_Allreduce"
    std::uint64_t operations = 0;
    std::uint64_t calls = 0;
    double seconds = 0;          // summed over the participating ranks
    double waiting_seconds = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t bytes_received = 0;
    std::optional<MessageSizes> message_sizes;
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

// Labels that several communicators of `lines` share get their members,
// then, where those are alike too, their place among them (in the order of
// `lines`).
void make_labels_unique(std::vector<CommunicatorLine>& lines);

// Sorts each line's operations and then the lines, largest time first
// (stable: ties keep their order).
void sort_by_time(std::vector<CommunicatorLine>& lines);

// The table as CSV, one row per communicator and operation, with its header.
void write_communicators_csv(std::ostream& out, const std::vector<CommunicatorLine>& table);
// One communicator as a JSON object of the "communicators" array.
void write_communicator_json(std::ostream& out, const CommunicatorLine& line);

}  // namespace hindsight
