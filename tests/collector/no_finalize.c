/* Ends without MPI_Finalize (mode "exit") or through MPI_Abort ("abort"). */
#include <mpi.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "abort") == 0) MPI_Abort(MPI_COMM_WORLD, 3);
    return 0;
}
