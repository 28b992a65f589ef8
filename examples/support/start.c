#include "support/start.h"

#include <mpi.h>

void example_start(int *argc, char ***argv, int *rank, int *size)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

int example_stop(enum example_parse_result result)
{
    MPI_Finalize();
    return example_exit_status(result);
}
