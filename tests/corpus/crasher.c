/* A program for the collector's failure cases: after MPI_Init, rank 1
 * crashes with SIGSEGV ("segv") or calls abort() ("abort"); with "ok" all
 * ranks end normally. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char* what = argc > 1 ? argv[1] : "ok";
    if (rank == 1 && strcmp(what, "segv") == 0) raise(SIGSEGV);
    if (rank == 1 && strcmp(what, "abort") == 0) abort();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
