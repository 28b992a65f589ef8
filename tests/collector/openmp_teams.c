/* Threads that start before MPI_Init and a team larger than the first: a
 * region of 2 threads before MPI_Init (not recorded: no measurement yet),
 * then, measured, one of 2 threads and one of 3. Per rank the trace holds
 * 3 thread locations: the master and thread 1 in both recorded regions,
 * thread 2 in the second only; teams of 2 and of 3 threads. */
#include <mpi.h>
#include <omp.h>

int main(int argc, char **argv)
{
    int seen[3] = {0, 0, 0};
#pragma omp parallel num_threads(2)
    seen[omp_get_thread_num()] = 1;
    MPI_Init(&argc, &argv);
#pragma omp parallel num_threads(2)
    seen[omp_get_thread_num()] += 1;
#pragma omp parallel num_threads(3)
    seen[omp_get_thread_num()] += 1;
    MPI_Finalize();
    return seen[0] == 3 && seen[1] == 3 && seen[2] == 1 ? 0 : 1;
}
