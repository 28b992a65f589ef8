/* Non-blocking collectives with one participant that starts late by a known
 * delay: a late rank in MPI_Iallreduce (the others overlap part of the wait
 * with work), a late rank in MPI_Ibarrier, a late MPI_Ibcast root. Each is
 * awaited in MPI_Wait; each wait follows from --delay alone, and
 * doc/examples.md derives them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

/* The late ranks' computation before they start their collective, and the
 * others' computation between starting and awaiting one: functions of their
 * own so each has its own call path. They busy-wait, so the time is
 * computation, not idling. */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

__attribute__((noinline)) void overlapped_work(double seconds);
__attribute__((noinline)) void overlapped_work(double seconds)
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
        {"delay", EXAMPLE_SECONDS, &delay, 0, "how late the late participant of each collective starts it"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Non-blocking collectives awaited in MPI_Wait, each started late by one rank: "
                    "MPI_Iallreduce (partly overlapped), MPI_Ibarrier, MPI_Ibcast (late root).",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 2) {
        if (rank == 0) example_error(argv[0], "needs at least 2 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }
    const int last = size - 1;
    long wrong = 0;
    MPI_Request request;

    /* Start together so that each delay is the only reason to wait. */
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();

    /* 1. The last rank starts an all-reduce late; the others start it at
     * once and work for half the delay before they await it. */
    int maximum = -1;
    if (rank == last) delayed_work(delay);
    MPI_Iallreduce(&rank, &maximum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &request);
    if (rank != last) overlapped_work(delay / 2);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    wrong += maximum != last;

    /* 2. The last rank starts a barrier late; the others await it at once. */
    if (rank == last) delayed_work(delay);
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);

    /* 3. The root starts a broadcast late. */
    int value = rank == 0 ? 7 : 0;
    if (rank == 0) delayed_work(delay);
    MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    wrong += value != 7;

    const double elapsed = MPI_Wtime() - start;
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld collective results are wrong", rank, wrong);
    else if (rank == 0)
        printf("latecoll_nb: %d ranks, 3 non-blocking collectives each started late by %g s, %.6f s\n", size,
               delay, elapsed);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
