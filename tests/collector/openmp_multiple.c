/* MPI from an OpenMP worker thread (MPI_THREAD_MULTIPLE), on 2 ranks of 2
 * threads: in one parallel region, thread 1 of rank 0 computes for 0.2 s,
 * then sends one message (tag 7, 16 doubles) to rank 1, whose master thread
 * receives it, waiting for the late sender; every other thread only waits
 * in the region's closing barrier. The collector records the send on rank
 * 0's worker location, the receive on rank 1's master. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "openmp_multiple: the MPI library offers no MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double data[16] = {0};
    int ok = 1;
#pragma omp parallel num_threads(2)
    {
        const int me = omp_get_thread_num();
        if (rank == 0 && me == 1) {
            const double start = MPI_Wtime();
            while (MPI_Wtime() - start < 0.2) {
            }
            for (int i = 0; i < 16; ++i) data[i] = i;
            MPI_Send(data, 16, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
        }
        if (rank == 1 && me == 0) {
            MPI_Recv(data, 16, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ok = data[15] == 15.0;
        }
    }
    MPI_Finalize();
    return ok ? 0 : 1;
}
