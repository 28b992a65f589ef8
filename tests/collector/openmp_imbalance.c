/* An OpenMP program without MPI with a known imbalance: in one parallel
 * region of 2 threads, thread 1 computes DELAY seconds (argument, default
 * 0.2) longer than thread 0 before the region's implicit barrier, where
 * thread 0 therefore waits about DELAY seconds. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void spin(double seconds)
{
    const double until = omp_get_wtime() + seconds;
    while (omp_get_wtime() < until) {
    }
}

int main(int argc, char** argv)
{
    const double delay = argc > 1 ? atof(argv[1]) : 0.2;
#pragma omp parallel num_threads(2)
    {
        spin(0.01);
        if (omp_get_thread_num() == 1) spin(delay);
    }
    printf("openmp_imbalance: thread 1 was %.3f s late\n", delay);
    return 0;
}
