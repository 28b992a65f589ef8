// Unification of the ranks' local definitions into the archive's one global
// definition set. Each rank describes what it defined (regions, communicators,
// its node, its event count); rank 0 merges the descriptions and tells each
// rank how its local ids map to global ones.
//
// Global ids: regions in order of first appearance (rank 0's first, then
// rank 1's new ones, ...); communicators MPI_COMM_WORLD = 0, MPI_COMM_SELF =
// 1, then the others ordered by their creation key. Groups: 0 is the MPI
// COMM_LOCATIONS group (location id = world rank), then one COMM_SELF group
// and one COMM_GROUP per distinct member list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>
#include <otf2/otf2.h>

#include "collector/comm_registry.hpp"
#include "collector/region_registry.hpp"

namespace hindsight::collect {

struct LocalDefinitions {
    std::vector<RegionDef> regions;
    std::vector<CommRecord> comms;
    std::string hostname;
    std::uint64_t event_count = 0;
};

std::vector<std::byte> serialize(const LocalDefinitions& defs);
// Throws hindsight::Error("rank N", ...) on a truncated or malformed buffer.
LocalDefinitions deserialize(std::span<const std::byte> bytes, int rank);

struct GlobalGroup {
    OTF2_GroupType type = OTF2_GROUP_TYPE_COMM_GROUP;
    std::vector<std::uint64_t> members;
};

struct GlobalComm {
    std::string name;          // "MPI_COMM_WORLD", "MPI_COMM_SELF" or the creating call
    std::uint32_t group = 0;   // inter-communicators: both groups, one side first
    std::uint32_t parent = OTF2_UNDEFINED_COMM;
};

struct UnifiedDefinitions {
    std::vector<RegionDef> regions;
    std::vector<GlobalGroup> groups;
    std::vector<GlobalComm> comms;
    std::vector<std::string> nodes;           // distinct host names, in rank order
    std::vector<std::uint32_t> node_of_rank;  // index into nodes
    std::vector<std::uint64_t> events_of_rank;
    // Per rank: global id of each local region / communicator id.
    std::vector<std::vector<std::uint64_t>> region_maps;
    std::vector<std::vector<std::uint64_t>> comm_maps;
};

UnifiedDefinitions unify(const std::vector<LocalDefinitions>& ranks);

struct ClockWindow {
    std::uint64_t ticks_per_second = 1'000'000'000u;
    std::uint64_t global_offset = 0;
    std::uint64_t length = 0;
    std::uint64_t realtime = OTF2_UNDEFINED_TIMESTAMP;
};

// Writes the global definitions; `program` is the executable's path, which
// PROGRAM_BEGIN events refer to as string kProgramNameString.
void write_global_definitions(OTF2_GlobalDefWriter* writer, const UnifiedDefinitions& defs,
                              const ClockWindow& clock, const std::string& program);

inline constexpr OTF2_StringRef kEmptyString = 0;
inline constexpr OTF2_StringRef kProgramNameString = 1;

}  // namespace hindsight::collect

namespace hindsight::collect {

// What a rank learns from the exchange: its id maps, and on rank 0 the
// unified definitions to write.
struct ExchangedDefinitions {
    std::vector<std::uint64_t> region_map;
    std::vector<std::uint64_t> comm_map;
    UnifiedDefinitions unified;  // rank 0 only
    bool failed = false;         // rank 0 could not unify: there are no maps
    std::string failure;         // rank 0 only: why
};

// Collective over `comm` (rank 0 unifies). A failure on rank 0 (e.g. a
// rank's definitions it cannot read) is announced to every rank before any
// of them waits for its maps, so all ranks return, all with `failed` set.
ExchangedDefinitions exchange_definitions(const LocalDefinitions& local, MPI_Comm comm);
// The same on definitions serialized already (`serialize`).
ExchangedDefinitions exchange_serialized(std::span<const std::byte> mine, MPI_Comm comm);

// Writes a local-to-global id mapping table unless it is the identity.
void write_mapping(OTF2_DefWriter* writer, OTF2_MappingType type, const std::vector<std::uint64_t>& map);

}  // namespace hindsight::collect
