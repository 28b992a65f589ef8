/* An OpenMP program without MPI: the collector measures it as one rank of
 * 2 threads. One parallel region: each thread enters the critical section
 * once and the explicit barrier once; the region ends with its implicit
 * barrier.
 *
 * With the argument "exit-inside", thread 1 calls exit(0) after the
 * explicit barrier, inside the region: the program must end as it would
 * without the collector (status 0), and the trace closes the region.
 *
 * With the argument "from-thread", the region runs on a POSIX thread that
 * main starts: the OpenMP runtime starts there, not on the program's first
 * thread. */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int exit_inside = 0;

static void* run_region(void* unused)
{
    (void)unused;
    int threads = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp critical
        ++threads;
#pragma omp barrier
        if (exit_inside && omp_get_thread_num() == 1) {
            printf("openmp_no_mpi: %d threads\n", threads);
            fflush(stdout);
            exit(0);
        }
    }
    printf("openmp_no_mpi: %d threads\n", threads);
    return threads == 2 ? NULL : (void*)1;
}

int main(int argc, char** argv)
{
    exit_inside = argc > 1 && strcmp(argv[1], "exit-inside") == 0;
    if (argc > 1 && strcmp(argv[1], "from-thread") == 0) {
        pthread_t thread;
        void* failed = NULL;
        if (pthread_create(&thread, NULL, run_region, NULL) != 0 || pthread_join(thread, &failed) != 0) return 1;
        return failed ? 1 : 0;
    }
    return run_region(NULL) ? 1 : 0;
}
