// Unification of the ranks' local definitions into the archive's one global
// definition set, and the maps from each rank's local ids to global ones.
//
// Global ids: regions in order of first appearance (rank 0's first, then
// rank 1's new ones, ...); communicators MPI_COMM_WORLD = 0, MPI_COMM_SELF =
// 1, then the others ordered by their creation key. Groups: 0 is the MPI
// COMM_LOCATIONS group (location id = world rank), then one COMM_SELF group
// and one COMM_GROUP per distinct member list: those of the communicators
// first, then those of the receive sources not among them (a set of sources
// whose list a communicator's group has shares that group). With OpenMP
// threads (Score-P's conventions): then the OpenMP COMM_LOCATIONS group of
// every thread location, rank by rank, master first, and one group per
// thread team of a rank: the indices of its threads in that group; the
// teams' communicators ("Thread team N") follow the MPI ones.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "collector/local_definitions.hpp"

namespace hindsight::collect {

struct GlobalGroup {
    OTF2_GroupType type = OTF2_GROUP_TYPE_COMM_GROUP;
    std::vector<std::uint64_t> members;
    OTF2_Paradigm paradigm = OTF2_PARADIGM_MPI;
    std::string name;
};

struct GlobalComm {
    std::string name;          // "MPI_COMM_WORLD", "MPI_COMM_SELF" or the creating call
    std::uint32_t group = 0;   // inter-communicators: both groups, one side first
    std::uint32_t parent = OTF2_UNDEFINED_COMM;
    std::vector<int> cart_dims;     // a Cartesian topology (CommRecord's)
    std::vector<int> cart_periods;
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
    // Per rank: global group of each local source group.
    std::vector<std::vector<std::uint64_t>> group_maps;
    // Whether any rank recorded receive sources: the attribute is defined.
    bool receive_sources = false;
    // MPI-IO: one file per distinct name; one handle per rank's handle,
    // on the global communicator it was opened on (or none).
    std::vector<std::string> io_files;
    std::vector<IoHandleRecord> io_handles;
    std::vector<std::vector<std::uint64_t>> io_file_maps;    // per rank
    std::vector<std::vector<std::uint64_t>> io_handle_maps;  // per rank
    // MPI RMA: the windows, each on its global communicator, ordered by
    // (communicator, number among that communicator's windows); the same
    // window of all its members is one.
    std::vector<OTF2_CommRef> rma_windows;
    std::vector<std::vector<std::uint64_t>> rma_win_maps;  // per rank
    // OpenMP: per rank the events of its thread locations after the master
    // (location id (t << 32) | rank for thread t). Their teams are
    // communicators after the MPI ones (comm_maps continues with them),
    // each on a group of indices into the OpenMP locations group.
    std::vector<std::vector<std::uint64_t>> thread_events_of_rank;
    bool openmp = false;
};

// Score-P's location id of OpenMP thread `thread` of `rank`.
inline std::uint64_t thread_location(std::uint64_t rank, std::uint64_t thread) { return (thread << 32) | rank; }

UnifiedDefinitions unify(const std::vector<LocalDefinitions>& ranks);

}  // namespace hindsight::collect
