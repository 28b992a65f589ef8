/* Messages received the way mpi4py's comm.recv() does: MPI_Mprobe for the
 * size, then MPI_Mrecv of exactly that message; the second round probes
 * with MPI_Improbe in a loop and receives with MPI_Imrecv. Rank 0 computes
 * --delay seconds before each of its sends, so every other rank waits that
 * long inside its probe (blocking round) or its polling loop (second
 * round). doc/examples.md derives the calls and waits. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

enum { TAG = 3 };

/* Rank 0's computation before it sends; a function of its own so the delay
 * has its own call path (main/delayed_work). */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

/* A message of `count` ints whose every element is `value`. */
static void send_round(int size, int count, int value)
{
    int *data = malloc((size_t)count * sizeof *data);
    for (int i = 0; i < count; ++i) data[i] = value;
    for (int peer = 1; peer < size; ++peer) MPI_Send(data, count, MPI_INT, peer, TAG, MPI_COMM_WORLD);
    free(data);
}

/* Receives one message of unknown size from rank 0; returns how many of
 * its elements differ from `value`. */
static long receive_round(int blocking, int value)
{
    MPI_Message message;
    MPI_Status status;
    if (blocking) {
        MPI_Mprobe(0, TAG, MPI_COMM_WORLD, &message, &status);
    } else {
        int found = 0;
        while (!found) MPI_Improbe(0, TAG, MPI_COMM_WORLD, &found, &message, &status);
    }
    int count = 0;
    MPI_Get_count(&status, MPI_INT, &count);
    int *data = malloc((size_t)(count > 0 ? count : 1) * sizeof *data);
    if (blocking) {
        MPI_Mrecv(data, count, MPI_INT, &message, MPI_STATUS_IGNORE);
    } else {
        MPI_Request request;
        MPI_Imrecv(data, count, MPI_INT, &message, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    long wrong = 0;
    for (int i = 0; i < count; ++i) wrong += data[i] != value;
    free(data);
    return wrong;
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    double delay = 0.3;
    long count = 256;
    struct example_option options[] = {
        {"delay", EXAMPLE_SECONDS, &delay, 0, "how long rank 0 computes before each of its two sends"},
        {"count", EXAMPLE_INTEGER, &count, 1, "ints per message"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Matched probes: MPI_Mprobe/MPI_Mrecv, then MPI_Improbe/MPI_Imrecv, with a late sender.",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 2) {
        if (rank == 0) example_error(argv[0], "needs at least 2 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    long wrong = 0;
    for (int round = 0; round < 2; ++round) {
        if (rank == 0) {
            delayed_work(delay);
            send_round(size, (int)count, round + 1);
        } else {
            wrong += receive_round(round == 0, round + 1);
        }
    }
    const double elapsed = MPI_Wtime() - start;
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld received elements are wrong", rank, wrong);
    else if (rank == 0)
        printf("mprobe: 2 rounds of %ld ints to %d ranks, each late by %g s, %.6f s\n", count, size - 1, delay,
               elapsed);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
