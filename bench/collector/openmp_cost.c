/* The collector's cost per OpenMP event: one parallel region in which every
 * thread passes BARRIERS explicit barriers (2 events per thread each) and
 * takes and gives back an OpenMP lock LOCKS times (6 events each), then one
 * thread creates TASKS empty explicit tasks (2 events each where a thread
 * runs it), between MPI_Init and MPI_Finalize. Prints "seconds S" for the
 * region; the bench script (bench/collector/openmp) divides the added time
 * by the events the trace holds. Built by that script with clang -fopenmp. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const long barriers = argc > 1 ? atol(argv[1]) : 100000;
    const long locks = argc > 2 ? atol(argv[2]) : 100000;
    const long tasks = argc > 3 ? atol(argv[3]) : 0;
    MPI_Init(&argc, &argv);
    omp_lock_t lock;
    omp_init_lock(&lock);
    long shared = 0;
    const double start = MPI_Wtime();
#pragma omp parallel
    {
        for (long i = 0; i < barriers; ++i) {
#pragma omp barrier
        }
        for (long i = 0; i < locks; ++i) {
            omp_set_lock(&lock);
            ++shared;
            omp_unset_lock(&lock);
        }
#pragma omp single
        for (long i = 0; i < tasks; ++i) {
#pragma omp task
            {
#pragma omp atomic
                ++shared;
            }
        }
    }
    const double seconds = MPI_Wtime() - start;
    omp_destroy_lock(&lock);
    printf("seconds %.6f (%ld lock updates)\n", seconds, shared);
    MPI_Finalize();
    return 0;
}
