// From every rank's LocalCube to one CUBE report on rank 0: the values are
// gathered sparsely (most metric x call path cells of a rank are zero), and
// the report's dimensions come from the definitions and the global call
// tree, which every rank shares.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <mpi.h>

#include "analyses/local_cube.hpp"
#include "common/cube/report.hpp"
#include "trace/local_trace.hpp"
#include "replay/progress_watch.hpp"

namespace hindsight::analyzer {

// Rank r's non-zero cells are index[offsets[r] .. offsets[r+1]) with their
// values; a cell index is thread * cells + metric * call_paths + call path
// (LocalCube order; cells = one LocalCube's size, thread 0 the master).
struct GatheredCubes {
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint64_t> index;
    std::vector<double> value;
};

// Collective over `world`; the result is filled on rank 0 only. `workers`
// holds the cubes of the rank's OpenMP worker threads, in their order.
GatheredCubes gather_cubes(const analyses::LocalCube& cube, std::span<const analyses::LocalCube> workers,
                           MPI_Comm world, replay::ProgressWatch& watch);

// The report (own shares) on rank 0: one location group per MPI rank, one
// location per thread of it (master first).
cube::Report assemble_report(const trace::LocalTrace& trace, const GatheredCubes& cubes);

}  // namespace hindsight::analyzer
