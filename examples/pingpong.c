/* Ping-pong between ranks 0 and 1, optionally with one injected delay on
 * rank 0 that makes rank 1 wait in MPI_Recv (a Late Sender of known length).
 * Behaviour and call counts: doc/examples.md. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/regions.h"
#include "support/spin.h"
#include "support/start.h"

enum { PING_TAG = 1, PONG_TAG = 2 };

/* Rank 0's computation right before its delayed ping. A function of its own
 * so that the delay has a call path of its own (main/delayed_work); it
 * computes (busy-waits) rather than sleeps so the delay is work, not idling. */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

/* The payload of round trip `round`; rank 1 echoes it, rank 0 checks it. */
EXAMPLE_NOT_A_REGION static unsigned char pattern(long round, long position)
{
    return (unsigned char)(31 * round + position);
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    long count = 100;
    long bytes = 1024;
    double delay = 0.0;
    long delay_at = 0;
    struct example_option options[] = {
        {"count", EXAMPLE_INTEGER, &count, 1, "number of round trips"},
        {"bytes", EXAMPLE_INTEGER, &bytes, 0, "message size in bytes"},
        {"delay", EXAMPLE_SECONDS, &delay, 0, "rank 0 computes this long in delayed_work() before one ping"},
        {"delay-at", EXAMPLE_INTEGER, &delay_at, 0, "round trip (from 0) whose ping is delayed"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Ranks 0 and 1 exchange messages back and forth; other ranks stay idle.",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (bytes > INT_MAX || delay_at >= count) {
        if (rank == 0)
            example_error(argv[0], bytes > INT_MAX ? "option --bytes must be at most INT_MAX"
                                                   : "option --delay-at must be below --count");
        return example_stop(EXAMPLE_BAD_USAGE);
    }
    if (size < 2) {
        if (rank == 0) example_error(argv[0], "needs at least 2 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }

    unsigned char *buffer = malloc((size_t)bytes + 1);
    long mismatches = 0;
    /* Start together so that the delayed ping is the only reason to wait. */
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (long round = 0; round < count && rank < 2; ++round) {
        if (rank == 0) {
            for (long i = 0; i < bytes; ++i) buffer[i] = pattern(round, i);
            if (delay > 0.0 && round == delay_at) delayed_work(delay);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 1, PING_TAG, MPI_COMM_WORLD);
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 1, PONG_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (long i = 0; i < bytes; ++i) mismatches += buffer[i] != pattern(round, i);
        } else {
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 0, PING_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 0, PONG_TAG, MPI_COMM_WORLD);
        }
    }
    const double elapsed = MPI_Wtime() - start;
    free(buffer);

    if (mismatches != 0)
        example_error(argv[0], "rank %d: %ld bytes came back wrong", rank, mismatches);
    else if (rank == 0)
        printf("pingpong: %ld round trips of %ld bytes in %.6f s (%.3f us each)\n", count, bytes,
               elapsed, 1e6 * elapsed / (double)count);
    MPI_Finalize();
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
