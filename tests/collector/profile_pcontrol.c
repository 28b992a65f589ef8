/* A profile's counts with MPI_Pcontrol: ranks 0 and 1 exchange SENDS
 * messages of BYTES bytes; MPI_Pcontrol(0) pauses the measurement around
 * the middle PAUSED of them, so the profile counts SENDS - PAUSED sends and
 * receives per rank. Every other rank only takes part in the barrier. */
#include <mpi.h>

enum { SENDS = 10, PAUSED = 4, BYTES = 77 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char buffer[BYTES] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < SENDS; ++i) {
        if (i == (SENDS - PAUSED) / 2) MPI_Pcontrol(0);
        if (i == (SENDS - PAUSED) / 2 + PAUSED) MPI_Pcontrol(1);
        if (rank == 0) {
            MPI_Send(buffer, BYTES, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buffer, BYTES, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buffer, BYTES, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, BYTES, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
