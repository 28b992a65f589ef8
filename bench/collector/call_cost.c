/* Cost of an intercepted MPI call: times a loop of MPI_Comm_rank calls
 * (the cheapest MPI function) and prints nanoseconds per call. Run it with
 * and without the collector; the difference is what ENTER + LEAVE cost.
 * Usage: call_cost [CALLS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const long calls = argc > 1 ? atol(argv[1]) : 1000000;
    int rank = 0;
    const double start = MPI_Wtime();
    for (long i = 0; i < calls; ++i) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const double elapsed = MPI_Wtime() - start;
    if (rank == 0) printf("call_cost: %.1f ns per MPI_Comm_rank\n", 1e9 * elapsed / (double)calls);
    MPI_Finalize();
    return 0;
}
