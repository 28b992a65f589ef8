/* A Cartesian communicator and its sub-communicators: the ranks form a
 * periodic 2-D grid (MPI_Cart_create with reorder, in setup_grid), split
 * into row and column communicators (MPI_Cart_sub, in row_communicator and
 * column_communicator). Every iteration exchanges one int with the four grid
 * neighbours (MPI_Sendrecv), sums over the row and over the column
 * (MPI_Allreduce each) and checks both sums. The analyzer's profile per
 * communicator names all of them. Details: doc/examples.md. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/regions.h"
#include "support/start.h"

struct grid {
    MPI_Comm cart;
    MPI_Comm row;    /* ranks with the same first coordinate */
    MPI_Comm column; /* ranks with the same second coordinate */
};

/* Regions of their own (compiler instrumentation), so that the communicators
 * they create are named after different call paths. */
MPI_Comm row_communicator(MPI_Comm cart)
{
    const int remain[2] = {0, 1};
    MPI_Comm row = MPI_COMM_NULL;
    MPI_Cart_sub(cart, remain, &row);
    return row;
}

MPI_Comm column_communicator(MPI_Comm cart)
{
    const int remain[2] = {1, 0};
    MPI_Comm column = MPI_COMM_NULL;
    MPI_Cart_sub(cart, remain, &column);
    return column;
}

struct grid setup_grid(int size)
{
    int dims[2] = {0, 0};
    const int periodic[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    struct grid g = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL};
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periodic, 1, &g.cart);
    g.row = row_communicator(g.cart);
    g.column = column_communicator(g.cart);
    return g;
}

/* Sends `value` both ways along dimension `dim` and returns the sum of what
 * the two neighbours sent. */
EXAMPLE_NOT_A_REGION static int exchange(MPI_Comm cart, int dim, int value)
{
    int lower = MPI_PROC_NULL;
    int upper = MPI_PROC_NULL;
    MPI_Cart_shift(cart, dim, 1, &lower, &upper);
    int from_lower = 0;
    int from_upper = 0;
    MPI_Sendrecv(&value, 1, MPI_INT, upper, 1, &from_lower, 1, MPI_INT, lower, 1, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&value, 1, MPI_INT, lower, 2, &from_upper, 1, MPI_INT, upper, 2, cart, MPI_STATUS_IGNORE);
    return from_lower + from_upper;
}

/* Number of wrong results of one iteration. */
EXAMPLE_NOT_A_REGION static long iterate(const struct grid *g)
{
    int rank = 0;
    int row_size = 0;
    int column_size = 0;
    MPI_Comm_rank(g->cart, &rank);
    MPI_Comm_size(g->row, &row_size);
    MPI_Comm_size(g->column, &column_size);
    int coords[2] = {0, 0};
    MPI_Cart_coords(g->cart, rank, 2, coords);
    long wrong = 0;

    /* Every rank sends 1: each receives 1 from each of its four neighbours. */
    wrong += exchange(g->cart, 0, 1) != 2;
    wrong += exchange(g->cart, 1, 1) != 2;

    int row_sum = 0;
    int column_sum = 0;
    MPI_Allreduce(&coords[1], &row_sum, 1, MPI_INT, MPI_SUM, g->row);
    MPI_Allreduce(&coords[0], &column_sum, 1, MPI_INT, MPI_SUM, g->column);
    wrong += row_sum != row_size * (row_size - 1) / 2;
    wrong += column_sum != column_size * (column_size - 1) / 2;
    return wrong;
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    long iterations = 10;
    struct example_option options[] = {
        {"iterations", EXAMPLE_INTEGER, &iterations, 1, "number of exchange-and-sum rounds"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Neighbour exchanges on a Cartesian grid, sums over its rows and columns.", options,
        sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);

    struct grid g = setup_grid(size);
    long wrong = 0;
    for (long i = 0; i < iterations; ++i) wrong += iterate(&g);
    MPI_Comm_free(&g.column);
    MPI_Comm_free(&g.row);
    MPI_Comm_free(&g.cart);

    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld results are wrong", rank, wrong);
    else if (rank == 0)
        printf("cartgrid: %d ranks, %ld iterations, all results correct\n", size, iterations);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
