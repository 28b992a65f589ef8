// What the MPI launcher (mpirun, mpiexec, srun) tells each process it starts
// through the environment, read by hindsight-collect before MPI exists.
#pragma once

#include <optional>

namespace hindsight::collect {

// The number of processes of the job (MPICH's and Slurm's PMI_SIZE, Open
// MPI's OMPI_COMM_WORLD_SIZE); nothing when the launcher does not say.
std::optional<int> launched_job_size();

// Whether this is the first process the launcher started on this node
// (MPICH's MPI_LOCALRANKID, Open MPI's OMPI_COMM_WORLD_LOCAL_RANK, Slurm's
// SLURM_LOCALID); true when it does not say.
bool first_process_on_node();

}  // namespace hindsight::collect
