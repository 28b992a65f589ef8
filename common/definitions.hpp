// The definitions model: what a trace's global definitions say about the
// program (regions), the machine (system tree, location groups, locations)
// and its communication (groups, communicators). It is independent of OTF2:
// the trace loader fills it, the analyses and the report writers read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.hpp"

namespace hindsight {

// Identifiers are the trace's own definition ids. They index the vectors
// below: the loader keeps them dense, as the OTF2 writers we know do.
using RegionId = std::uint32_t;
using SystemTreeNodeId = std::uint32_t;
using LocationGroupId = std::uint32_t;
using LocationId = std::uint64_t;
using GroupId = std::uint32_t;
using CommId = std::uint32_t;

inline constexpr std::uint32_t kNoId = 0xffffffffu;

enum class Paradigm : std::uint8_t {
    Unknown,
    User,
    Compiler,
    Mpi,
    MeasurementSystem,
    OpenMp,
    Other,
};

// What a region does; mirrors the OTF2 region roles the analysis uses.
enum class RegionRole : std::uint8_t {
    Unknown,
    Function,
    Wrapper,
    Loop,
    Code,
    Artificial,
    Barrier,
    ImplicitBarrier,
    CollOne2All,
    CollAll2One,
    CollAll2All,
    CollOther,
    Point2Point,
    FileIo,
    FileIoMetadata,
    Rma,
    Atomic,
    // OpenMP constructs (Score-P's roles for them).
    Parallel,
    Critical,
    CriticalSblock,
    Task,  // an explicit task's execution, tied or untied
    Other,
};

struct Region {
    std::string name;            // display name, e.g. "int main(int, char**)"
    std::string canonical_name;  // e.g. "main"
    std::string source_file;     // empty when unknown
    std::uint32_t begin_line = 0;
    std::uint32_t end_line = 0;
    RegionRole role = RegionRole::Unknown;
    Paradigm paradigm = Paradigm::Unknown;
};

struct SystemTreeNode {
    std::string name;        // e.g. "quartz10"
    std::string class_name;  // e.g. "machine", "node"
    SystemTreeNodeId parent = kNoId;
};

// One MPI process ("MPI Rank N").
struct LocationGroup {
    std::string name;
    SystemTreeNodeId system_tree_parent = kNoId;
};

// One thread of a process ("Master thread"); it owns an event stream.
struct Location {
    LocationId id = 0;
    std::string name;
    LocationGroupId group = kNoId;
    std::uint64_t event_count = 0;
};

enum class GroupType : std::uint8_t {
    Unknown,
    CommLocations,  // members are location ids; position = rank in MPI_COMM_WORLD
    CommGroup,      // members are ranks of MPI_COMM_WORLD; position = rank in the communicator
    CommSelf,
    Other,
};

struct Group {
    std::string name;
    GroupType type = GroupType::Unknown;
    Paradigm paradigm = Paradigm::Unknown;
    std::vector<std::uint64_t> members;
};

struct Communicator {
    std::string name;
    GroupId group = kNoId;
    CommId parent = kNoId;
    // An intercommunicator (OTF2's InterComm, as Score-P writes them): its
    // group holds both of its groups, the first one's `first_group_size`
    // members, then the second's; its events name ranks of the remote
    // group. 0 for an intracommunicator.
    std::uint32_t first_group_size = 0;
};

// A Cartesian topology of a communicator (OTF2's CartTopology with its
// dimensions). Its ranks' coordinates follow from the dimensions
// (common/cartesian_grid.hpp).
struct CartesianTopology {
    std::string name;
    CommId comm = kNoId;
    std::vector<int> dims;
    std::vector<bool> periodic;
};

// Where a trace came from, for the report's run information: the tool that
// wrote it (OTF2's creator, e.g. "Hindsight collector", "Score-P 8.1"), and
// the wall-clock time of the trace's start where its clock properties give
// one (OTF2 3.0's realtime timestamp: nanoseconds since 1970-01-01 UTC).
struct TraceOrigin {
    std::string creator;
    std::optional<std::uint64_t> start_unix_ns;
};

struct Definitions {
    ClockProperties clock;
    TraceOrigin origin;
    std::vector<Region> regions;
    std::vector<SystemTreeNode> system_tree;
    std::vector<LocationGroup> location_groups;
    std::vector<Location> locations;
    std::vector<Group> groups;
    std::vector<Communicator> communicators;
    std::vector<CartesianTopology> cartesian_topologies;

    // Ranks of MPI_COMM_WORLD that are members of `comm`, in communicator
    // rank order; MPI_COMM_SELF-like communicators yield an empty list.
    std::vector<int> world_ranks(CommId comm) const;
    // Rank in MPI_COMM_WORLD of the process that owns `location`, from the
    // MPI COMM_LOCATIONS group; nullopt when the location is not an MPI rank.
    std::optional<int> world_rank_of(LocationId location) const;
    // Location id of the (master thread of the) given MPI_COMM_WORLD rank.
    std::optional<LocationId> location_of_rank(int world_rank) const;
    // Number of MPI ranks the trace holds.
    int mpi_rank_count() const;
    // Whether `comm` is MPI_COMM_WORLD, or a copy of it (MPI_Comm_dup):
    // every MPI rank, each at its own world rank. Whatever the name says,
    // only such a communicator spans all ranks in their order.
    bool is_world(CommId comm) const;
    // Name of a communicator for messages to the user ("MPI_COMM_WORLD",
    // "Comm 3").
    std::string comm_display_name(CommId comm) const;
};

}  // namespace hindsight
