/* MPI from an OpenMP worker thread (MPI_THREAD_MULTIPLE), on 2 ranks of 2
 * threads: in one parallel region, thread 1 of rank 0 computes for 0.2 s,
 * then sends one message (tag 7, 16 doubles) to rank 1, whose master thread
 * receives it, waiting for the late sender; every other thread only waits
 * in the region's closing barrier. The collector records the send on rank
 * 0's worker location, the receive on rank 1's master. Then each thread
 * exchanges ROUNDS pairs of non-blocking messages with the same thread of
 * the other rank, both threads of a rank at once: MPI reuses a request's
 * handle as soon as one thread's wait freed it, so the collector must
 * tell each thread's requests apart to record their completions. Last,
 * each worker starts two requests that its master completes. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

enum { ROUNDS = 200 };

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
            if (data[15] != 15.0) {
#pragma omp atomic write
                ok = 0;
            }
        }
        const int other = 1 - rank;
        double mine = me, theirs = -1;
        for (int round = 0; round < ROUNDS; ++round) {
            MPI_Request requests[2];
            MPI_Irecv(&theirs, 1, MPI_DOUBLE, other, 100 + me, MPI_COMM_WORLD, &requests[0]);
            MPI_Isend(&mine, 1, MPI_DOUBLE, other, 100 + me, MPI_COMM_WORLD, &requests[1]);
            MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        }
        if (theirs != me) {
#pragma omp atomic write
            ok = 0;
        }
    }
    /* Requests one thread starts and another completes: each rank's worker
     * posts a receive and starts a send, its master waits for both after
     * the region. */
    double out = rank, in = -1;
    MPI_Request handed[2];
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1) {
        MPI_Irecv(&in, 1, MPI_DOUBLE, 1 - rank, 300, MPI_COMM_WORLD, &handed[0]);
        MPI_Isend(&out, 1, MPI_DOUBLE, 1 - rank, 300, MPI_COMM_WORLD, &handed[1]);
    }
    MPI_Waitall(2, handed, MPI_STATUSES_IGNORE);
    if (in != 1 - rank) ok = 0;
    MPI_Finalize();
    return ok ? 0 : 1;
}
