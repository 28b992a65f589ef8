/* Trace planning (hindsight-report --score): a user region "tiny" entered
 * TINY times per rank, each visit far shorter than 10 us, and a region
 * "slow" entered SLOW times, each a busy 20 ms; one MPI_Allreduce per
 * visit of "slow". The score's filter must leave out "tiny" alone. */
#define _POSIX_C_SOURCE 199309L
#include <hindsight.h>
#include <mpi.h>
#include <time.h>

enum { TINY = 5000, SLOW = 3 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    volatile int sink = 0;
    for (int i = 0; i < TINY; ++i) {
        hindsight_region_begin("tiny");
        sink += i;
        hindsight_region_end("tiny");
    }
    for (int i = 0; i < SLOW; ++i) {
        hindsight_region_begin("slow");
        const double end = now() + 0.02;
        while (now() < end) sink += 1;
        int value = sink, sum = 0;
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        hindsight_region_end("slow");
    }
    MPI_Finalize();
    return 0;
}
