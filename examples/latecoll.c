/* Four collectives in a row, each with one participant that arrives late by
 * a known delay: a late MPI_Bcast root, an early MPI_Reduce root, a late
 * rank in MPI_Allreduce and in MPI_Barrier. Each wait follows from --delay
 * alone; doc/examples.md derives them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

/* The late ranks' computation before their collective; a function of its
 * own so the delays have their own call path (main/delayed_work). It
 * busy-waits, so the delay is computation, not idling. */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    double delay = 0.1;
    struct example_option options[] = {
        {"delay", EXAMPLE_SECONDS, &delay, 0, "how late the late participant of each collective is"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Collectives with a late root (MPI_Bcast), an early root (MPI_Reduce) and a "
                    "late last rank (MPI_Allreduce, MPI_Barrier).",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 2) {
        if (rank == 0) example_error(argv[0], "needs at least 2 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }
    const int last = size - 1;
    long wrong = 0;

    /* Start together so that each delay is the only reason to wait. */
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();

    /* 1. The root broadcasts late: every other rank waits for it. */
    int value = rank == 0 ? 7 : 0;
    if (rank == 0) delayed_work(delay);
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    wrong += value != 7;

    /* 2. The root reduces early: it waits for all the others. */
    int sum = 0;
    if (rank != 0) delayed_work(delay);
    MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) wrong += sum != size * (size - 1) / 2;

    /* 3. The last rank joins an all-reduce late. */
    int maximum = -1;
    if (rank == last) delayed_work(delay);
    MPI_Allreduce(&rank, &maximum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    wrong += maximum != last;

    /* 4. The last rank reaches the barrier late. */
    if (rank == last) delayed_work(delay);
    MPI_Barrier(MPI_COMM_WORLD);

    const double elapsed = MPI_Wtime() - start;
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld collective results are wrong", rank, wrong);
    else if (rank == 0)
        printf("latecoll: %d ranks, 4 collectives each late by %g s, %.6f s\n", size, delay,
               elapsed);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
