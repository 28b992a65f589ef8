/* Neighborhood collectives on a periodic ring (a one-dimensional Cartesian
 * communicator): every rank exchanges a block with its left and right
 * neighbours by MPI_Neighbor_alltoall, then gathers theirs by
 * MPI_Neighbor_allgather, then once more non-blocking by
 * MPI_Ineighbor_alltoall completed by MPI_Wait. Rank 0 computes --delay
 * seconds before each of the three, so its two neighbours wait that long
 * in each; the other ranks wait only as far as their own neighbours do.
 * doc/examples.md derives the calls and waits. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

/* Rank 0's computation before each exchange (main/delayed_work). */
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
        {"delay", EXAMPLE_SECONDS, &delay, 0, "how long rank 0 computes before each exchange"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Neighborhood collectives on a ring, rank 0 late to each of three.", options,
        sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 3) {
        if (rank == 0) example_error(argv[0], "needs at least 3 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }

    const int dims[1] = {size};
    const int periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int left = 0;
    int right = 0;
    MPI_Cart_shift(ring, 0, 1, &left, &right);

    MPI_Barrier(ring);
    const double start = MPI_Wtime();
    /* To the left neighbour goes -rank, to the right one +rank. */
    int out[2] = {-rank, rank};
    int in[2] = {0, 0};
    long wrong = 0;

    if (rank == 0) delayed_work(delay);
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    /* From the left neighbour comes what it sent right, and the reverse. */
    wrong += in[0] != left || in[1] != -right;

    if (rank == 0) delayed_work(delay);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, in, 1, MPI_INT, ring);
    wrong += in[0] != left || in[1] != right;

    if (rank == 0) delayed_work(delay);
    MPI_Request request;
    MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    wrong += in[0] != left || in[1] != -right;

    const double elapsed = MPI_Wtime() - start;
    MPI_Comm_free(&ring);
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld exchanges brought wrong values", rank, wrong);
    else if (rank == 0)
        printf("neighbors: %d ranks, 3 exchanges each late by %g s, %.6f s\n", size, delay, elapsed);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
