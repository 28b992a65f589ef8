/* Nested parallel regions: R times (R = the first argument, default 2) a
 * team of 2 threads of which each forks an inner team of 2 threads (two
 * active levels), with a barrier and a critical section inside; between
 * the outer regions the masters exchange a value with MPI_Allreduce. The
 * collector records the outer level only: per rank 2 thread locations,
 * each with R parallel regions closed by R implicit barriers; the 2R inner
 * regions are left out, which MPI_Finalize says in one line per rank. Then
 * a teams construct on the host, a league of 2 teams each forking a region
 * (of 1 thread, the teams' limit): left out too, with everything inside
 * it, and said in the same line. The program checks that every inner
 * thread and some team ran (the runtime may start fewer teams than asked
 * for). */
#include <mpi.h>
#include <omp.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 2;
    MPI_Init(&argc, &argv);
    omp_set_max_active_levels(2);
    int ran = 0, total = 0;
    for (int round = 0; round < rounds; ++round) {
#pragma omp parallel num_threads(2)
        {
#pragma omp parallel num_threads(2)
            {
                volatile double x = 0;
                for (int i = 0; i < 100000; ++i) x += i;
#pragma omp barrier
#pragma omp critical
                ++ran;
            }
        }
        int mine = ran, sum = 0;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        total = sum;
    }
    int teams_ran = 0;
#pragma omp teams num_teams(2) thread_limit(1)
#pragma omp parallel
#pragma omp atomic
    ++teams_ran;
    int ranks = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Finalize();
    return ran == 4 * rounds && total == 4 * rounds * ranks && teams_ran > 0 ? 0 : 1;
}
