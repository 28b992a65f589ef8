// What one rank defined during the run (regions, communicators, its node,
// its event count, the groups of its receive sources, its MPI-IO files and handles, its RMA windows), and its encoding for the trip to rank 0, which unifies
// all ranks' definitions (definition_unification.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collector/comm_registry.hpp"
#include "collector/io_registry.hpp"
#include "collector/rma_registry.hpp"
#include "collector/region_registry.hpp"

namespace hindsight::collect {

struct LocalDefinitions {
    std::vector<RegionDef> regions;
    std::vector<CommRecord> comms;
    std::string hostname;
    std::uint64_t event_count = 0;
    // The receive sources recorded, by local group id: sorted world ranks
    // (source_groups.hpp).
    std::vector<std::vector<int>> source_groups;
    // MPI-IO: the files by local id, the handles opened on them.
    std::vector<std::string> io_files;
    std::vector<IoHandleRecord> io_handles;
    // OpenMP (openmp_recorder.hpp): the events of each thread location
    // after the master (thread t at index t - 1) and the size of each thread
    // team, by local team number.
    std::vector<std::uint64_t> thread_events;
    std::vector<std::uint32_t> team_sizes;
    // MPI RMA: the windows by local id, each on its communicator.
    std::vector<RmaWinRecord> rma_windows;
};

std::vector<std::byte> serialize(const LocalDefinitions& defs);
// Throws hindsight::Error("rank N", ...) on a truncated or malformed buffer.
LocalDefinitions deserialize(std::span<const std::byte> bytes, int rank);

}  // namespace hindsight::collect
