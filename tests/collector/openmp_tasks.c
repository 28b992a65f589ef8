/* An OpenMP program without MPI whose explicit tasks run in a barrier: in
 * one parallel region of 2 threads, thread 0 creates TASKS tasks of TASK
 * seconds each and goes on to the region's closing implicit barrier, where
 * it runs them while thread 1 computes LATE seconds (argument, default
 * 0.2) before it arrives. Thread 0's time in the barrier is the tasks' work
 * first, then waiting. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { TASKS = 4 };
static const double TASK = 0.03;

static void spin(double seconds)
{
    const double until = omp_get_wtime() + seconds;
    while (omp_get_wtime() < until) {
    }
}

int main(int argc, char** argv)
{
    const double late = argc > 1 ? atof(argv[1]) : 0.2;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            for (int i = 0; i < TASKS; ++i) {
#pragma omp task
                spin(TASK);
            }
        } else {
            spin(late);
        }
    }
    printf("openmp_tasks: %d tasks of %.3f s, thread 1 %.3f s late\n", TASKS, TASK, late);
    return 0;
}
