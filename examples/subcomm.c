/* Derived communicators (MPI_Comm_split, MPI_Comm_dup, MPI_Comm_create) and
 * eleven collective operations on each of them and on MPI_COMM_WORLD, every
 * call a fixed number of times. The call counts per rank are listed in
 * doc/examples.md; keep that list in step with this file. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/regions.h"
#include "support/start.h"

/* Counts one wrong value. */
EXAMPLE_NOT_A_REGION static void expect(long *wrong, int actual, int expected)
{
    *wrong += actual != expected;
}

/* Calls each of the eleven collectives once on `comm` (in the order listed in
 * the documentation) with one int per rank and checks every result. Returns
 * the number of wrong values. */
EXAMPLE_NOT_A_REGION static long exercise(MPI_Comm comm)
{
    int rank = 0;
    int n = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    int *out = malloc(sizeof(int) * (size_t)n);
    int *in = malloc(sizeof(int) * (size_t)n);
    long wrong = 0;
    int value = 0;
    int result = 0;

    MPI_Barrier(comm);

    value = rank == 0 ? 42 + n : -1;
    MPI_Bcast(&value, 1, MPI_INT, 0, comm);
    expect(&wrong, value, 42 + n);

    value = rank + 1;
    result = -1;
    MPI_Reduce(&value, &result, 1, MPI_INT, MPI_SUM, 0, comm);
    if (rank == 0) expect(&wrong, result, n * (n + 1) / 2);

    MPI_Allreduce(&rank, &result, 1, MPI_INT, MPI_MAX, comm);
    expect(&wrong, result, n - 1);

    MPI_Gather(&rank, 1, MPI_INT, in, 1, MPI_INT, 0, comm);
    for (int i = 0; rank == 0 && i < n; ++i) expect(&wrong, in[i], i);

    for (int i = 0; i < n; ++i) out[i] = 2 * i;
    MPI_Scatter(out, 1, MPI_INT, &result, 1, MPI_INT, 0, comm);
    expect(&wrong, result, 2 * rank);

    MPI_Allgather(&rank, 1, MPI_INT, in, 1, MPI_INT, comm);
    for (int i = 0; i < n; ++i) expect(&wrong, in[i], i);

    for (int i = 0; i < n; ++i) out[i] = rank * n + i;
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, comm);
    for (int i = 0; i < n; ++i) expect(&wrong, in[i], i * n + rank);

    value = 1;
    MPI_Scan(&value, &result, 1, MPI_INT, MPI_SUM, comm);
    expect(&wrong, result, rank + 1);

    MPI_Exscan(&value, &result, 1, MPI_INT, MPI_SUM, comm);
    if (rank > 0) expect(&wrong, result, rank); /* undefined on rank 0 */

    /* Block j of the sum over ranks r of (r + j) lands on rank j. */
    for (int i = 0; i < n; ++i) out[i] = rank + i;
    MPI_Reduce_scatter_block(out, &result, 1, MPI_INT, MPI_SUM, comm);
    expect(&wrong, result, n * (n - 1) / 2 + n * rank);

    free(out);
    free(in);
    return wrong;
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    long repeat = 1;
    struct example_option options[] = {
        {"repeat", EXAMPLE_INTEGER, &repeat, 1, "times each communicator runs all eleven collectives"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Collectives on MPI_COMM_WORLD and on split, duplicated and created communicators.",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);

    MPI_Comm parity = MPI_COMM_NULL; /* even or odd world ranks */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
    MPI_Comm duplicate = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &duplicate);

    /* The lower half: world ranks 0 .. ceil(size / 2) - 1. */
    const int lower_size = (size + 1) / 2;
    int *members = malloc(sizeof(int) * (size_t)lower_size);
    for (int i = 0; i < lower_size; ++i) members[i] = i;
    MPI_Group world_group = MPI_GROUP_NULL;
    MPI_Group lower_group = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, lower_size, members, &lower_group);
    MPI_Comm lower = MPI_COMM_NULL; /* stays MPI_COMM_NULL outside the group */
    MPI_Comm_create(MPI_COMM_WORLD, lower_group, &lower);
    MPI_Group_free(&lower_group);
    MPI_Group_free(&world_group);
    free(members);

    long wrong = 0;
    for (long round = 0; round < repeat; ++round) {
        wrong += exercise(MPI_COMM_WORLD);
        wrong += exercise(duplicate);
        wrong += exercise(parity);
        if (lower != MPI_COMM_NULL) wrong += exercise(lower);
    }

    if (lower != MPI_COMM_NULL) MPI_Comm_free(&lower);
    MPI_Comm_free(&parity);
    MPI_Comm_free(&duplicate);

    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld collective results are wrong", rank, wrong);
    else if (rank == 0)
        printf("subcomm: %d ranks, %ld round(s) of 11 collectives per communicator, all results "
               "correct\n",
               size, repeat);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
