// Which time metric a region's own time belongs to. The classes follow
// Scalasca's, so that the two tools split time alike: MPI functions by their
// OTF2 role or, where the role says too little (MPI_Wait, MPI_Comm_split,
// ...), by name; the measurement system's buffer flushes as overhead;
// OpenMP's barriers, critical constructs, lock functions, ordered, taskwait
// and flush by role or Score-P's name of the construct; all other regions
// (parallel regions, loops, critical bodies included) as computation.
#pragma once

#include <string_view>

#include "common/metric_tree.hpp"
#include "common/definitions.hpp"

namespace hindsight {

// The metric that holds the exclusive time of `region` before any wait-state
// pattern claims part of it: Comp, Overhead, or one of the MPI time classes
// (Mpi itself for MPI functions of no finer class).
metrics::Metric time_category(const Region& region);

// True for regions of the MPI API.
bool is_mpi_region(const Region& region);

// True for the MPI functions among them: all but Score-P's "PARALLEL"
// region of the MPI paradigm, which spans the whole parallel program.
bool is_mpi_call(const Region& region);

// True for the MPI functions that start and end MPI (MPI_Init,
// MPI_Init_thread, MPI_Finalize and their queries), by name.
bool is_init_or_finalize(std::string_view name);

// True for the region a flush of the trace buffer is recorded as (Score-P's
// and the collector's "TRACE BUFFER FLUSH"): the rank stood still meanwhile.
bool is_buffer_flush(std::string_view name, Paradigm paradigm);

}  // namespace hindsight
