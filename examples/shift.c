/* A shift by MPI_Alltoallv: every rank sends one block to the next rank on a
 * ring of all ranks and receives one from the previous, the counts of every
 * other rank zero, so each rank depends on its left neighbour alone. Rank 0
 * computes --delay seconds before each of two shifts, the first by
 * MPI_Alltoallv, the second by MPI_Ialltoallv completed by MPI_Wait (after a
 * barrier that lines the ranks up again). Rank 1, which receives from rank 0,
 * waits that long in each; the others wait for nobody.
 * doc/examples.md derives the calls and waits. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

/* Rank 0's computation before each shift (main/delayed_work). */
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

    double delay = 0.3;
    struct example_option options[] = {
        {"delay", EXAMPLE_SECONDS, &delay, 0, "how long rank 0 computes before each shift"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "A ring shift by MPI_Alltoallv, rank 0 late to each of two.", options,
        sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 3) {
        if (rank == 0) example_error(argv[0], "needs at least 3 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }

    const int next = (rank + 1) % size;
    const int previous = (rank + size - 1) % size;
    int *send_counts = calloc((size_t)size, sizeof *send_counts);
    int *receive_counts = calloc((size_t)size, sizeof *receive_counts);
    int *displacements = calloc((size_t)size, sizeof *displacements);
    if (!send_counts || !receive_counts || !displacements) {
        example_error(argv[0], "out of memory");
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    send_counts[next] = 1;
    receive_counts[previous] = 1;
    long wrong = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    int out = rank;
    int in = -1;
    if (rank == 0) delayed_work(delay);
    MPI_Alltoallv(&out, send_counts, displacements, MPI_INT, &in, receive_counts, displacements, MPI_INT,
                  MPI_COMM_WORLD);
    wrong += in != previous;

    MPI_Barrier(MPI_COMM_WORLD);
    in = -1;
    if (rank == 0) delayed_work(delay);
    MPI_Request request;
    MPI_Ialltoallv(&out, send_counts, displacements, MPI_INT, &in, receive_counts, displacements, MPI_INT,
                   MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    wrong += in != previous;

    const double elapsed = MPI_Wtime() - start;
    free(send_counts);
    free(receive_counts);
    free(displacements);
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld shifts brought wrong values", rank, wrong);
    else if (rank == 0)
        printf("shift: %d ranks, 2 shifts each late by %g s, %.6f s\n", size, delay, elapsed);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
