/* OpenMP constructs with exactly known counts, for the collector's OMPT
 * recording (check_openmp.py). Every rank runs REGIONS parallel regions of
 * 2 threads; in each, every thread passes a critical section, takes and
 * gives back an OpenMP lock (thread 0 with omp_set_lock; thread 1, once
 * thread 0 holds it, with omp_test_lock until a test succeeds: the tests
 * that fail take no lock and leave no region), waits in an explicit
 * barrier (thread 1 comes
 * late), shares a loop (with its implicit barrier) and ends in the region's
 * closing implicit barrier; one of the threads runs a taskloop of TASKLOOP
 * tasks on the way (single nowait). Only the master calls MPI (FUNNELED): a
 * barrier after each region. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <time.h>

enum { REGIONS = 3, TASKLOOP = 2 };

static void pause_for(double seconds)
{
    struct timespec t = {0, (long)(seconds * 1e9)};
    nanosleep(&t, NULL);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    omp_lock_t lock;
    omp_init_lock(&lock);
    long counts[2] = {0, 0};
    /* One counter per lock: the critical section and the OpenMP lock are
     * different locks, so one counter under both would be a data race. */
    long in_critical = 0;
    long under_lock = 0;
    int held_in_region = 0; /* thread 0 holds the lock in region number ... */
    int failed_tests = 0;
    int task_ran[REGIONS][TASKLOOP] = {{0}};
    for (int r = 0; r < REGIONS; ++r) {
#pragma omp parallel num_threads(2)
        {
            const int me = omp_get_thread_num();
#pragma omp critical
            ++in_critical;
            if (me == 0) {
                omp_set_lock(&lock);
#pragma omp atomic write
                held_in_region = r + 1;
                pause_for(0.002);
            } else {
                int held = 0;
                while (held != r + 1) {
#pragma omp atomic read
                    held = held_in_region;
                }
                for (; !omp_test_lock(&lock); ++failed_tests) {
                }
            }
            ++under_lock;
            omp_unset_lock(&lock);
            if (me == 1) pause_for(0.005);
#pragma omp barrier
#pragma omp for
            for (int i = 0; i < 8; ++i) counts[me] += i;
#pragma omp single nowait
#pragma omp taskloop grainsize(1)
            for (int i = 0; i < TASKLOOP; ++i) task_ran[r][i] = 1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    omp_destroy_lock(&lock);
    int tasks = 0;
    for (int r = 0; r < REGIONS; ++r)
        for (int i = 0; i < TASKLOOP; ++i) tasks += task_ran[r][i];
    const int right = in_critical == 2 * REGIONS && under_lock == 2 * REGIONS && tasks == REGIONS * TASKLOOP &&
                      failed_tests >= REGIONS;
    if (!right)
        fprintf(stderr, "openmp_constructs: %ld updates in the critical section and %ld under the lock instead of %d each, %d of %d tasks, %d failed lock tests\n",
                in_critical, under_lock, 2 * REGIONS, tasks, REGIONS * TASKLOOP, failed_tests);
    MPI_Finalize();
    return right ? 0 : 1;
}
