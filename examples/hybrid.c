/* A hybrid MPI + OpenMP time step, shaped like a sea-ice model: each rank
 * runs a parallel compute kernel in which thread t of T does (1 + t) units
 * of work (thread imbalance: the others wait in the closing implicit
 * barrier for the last thread), then its master alone exchanges a halo
 * with its neighbours in a ring (MPI_Init_thread with FUNNELED: only the
 * master calls MPI), after serial work that grows with the rank (rank
 * imbalance: the ranks wait in MPI_Sendrecv for the late send of their left
 * neighbour, rank 0 for the last rank's, and their other threads idle
 * meanwhile).
 *
 * Options: --steps N (default 4), --unit SECONDS (one unit of work, default
 * 0.01). Threads: OMP_NUM_THREADS. Built with clang -fopenmp, so that the
 * collector's OMPT tool records the threads (doc/collector.md). */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Busy work for `seconds`, so that the thread keeps its core. */
static double spin(double seconds)
{
    const double end = now() + seconds;
    double x = 0.0;
    while (now() < end) x += 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    int steps = 4;
    double unit = 0.01;
    for (int i = 1; i < argc; i += 2) {
        if (strcmp(argv[i], "--help") == 0) {
            printf("usage: hybrid [--steps N] [--unit SECONDS]; threads: OMP_NUM_THREADS\n");
            return 0;
        }
        const int known = strcmp(argv[i], "--steps") == 0 || strcmp(argv[i], "--unit") == 0;
        if (!known || i + 1 >= argc) {
            fprintf(stderr, "hybrid: %s: %s\n", argv[i], known ? "needs a value" : "unknown option");
            return 2;
        }
        if (strcmp(argv[i], "--steps") == 0) steps = atoi(argv[i + 1]);
        else unit = atof(argv[i + 1]);
        if (steps < 1 || unit < 0) {
            fprintf(stderr, "hybrid: %s %s: out of range\n", argv[i], argv[i + 1]);
            return 2;
        }
    }
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    double sum = 0.0;
    double halo_out[64] = {0};
    double halo_in[64] = {0};
    for (int step = 0; step < steps; ++step) {
        /* The kernel: thread imbalance inside the region. */
#pragma omp parallel reduction(+ : sum)
        {
            sum += spin(unit * (1 + omp_get_thread_num()));
        }
        /* The halo exchange, on the master alone: rank imbalance first. */
        sum += spin(unit * rank);
        halo_out[0] = sum;
        const int right = (rank + 1) % size;
        const int left = (rank + size - 1) % size;
        MPI_Sendrecv(halo_out, 64, MPI_DOUBLE, right, step, halo_in, 64, MPI_DOUBLE, left, step, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
    double total = 0.0;
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("hybrid: %d ranks x %d threads, %d steps (checksum %.3g)\n", size, omp_get_max_threads(),
                          steps, total);
    MPI_Finalize();
    return 0;
}
