/* An OpenMP program without MPI: the collector, preloaded, must let it run
 * as it would without (nothing is measured: there is no MPI_Init). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int threads = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp critical
        ++threads;
#pragma omp barrier
    }
    printf("openmp_no_mpi: %d threads\n", threads);
    return threads == 2 ? 0 : 1;
}
