/* Jacobi sweeps on a 2-D periodic grid split over a Cartesian communicator:
 * every iteration exchanges one-point halos with the four neighbours
 * (MPI_Sendrecv), computes, and sums the residual with MPI_Allreduce. Serves
 * as the compute-plus-halo overhead benchmark. Details: doc/examples.md. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/regions.h"
#include "support/start.h"

/* One rank's block: n x n points plus a one-point halo all around, row-major,
 * so that rows are contiguous and columns are strided. */
struct block {
    long n;
    long stride; /* n + 2 */
    double *values;
};

EXAMPLE_NOT_A_REGION static double *at(const struct block *b, long row, long column)
{
    return &b->values[row * b->stride + column];
}

/* The two neighbours along one Cartesian dimension (0: rows, 1: columns). */
struct axis {
    int dim;
    int lower;
    int upper;
};

EXAMPLE_NOT_A_REGION static struct axis axis_of(MPI_Comm cart, int dim)
{
    struct axis axis = {dim, MPI_PROC_NULL, MPI_PROC_NULL};
    MPI_Cart_shift(cart, dim, 1, &axis.lower, &axis.upper);
    return axis;
}

/* Fills both halos along `axis`: the last interior edge goes to the upper
 * neighbour while the lower neighbour's last edge arrives in the lower halo,
 * then the same downwards. `first` and `last` point at the first and last
 * interior edge, `step` is the distance from an edge to the next one. */
EXAMPLE_NOT_A_REGION static void exchange(MPI_Comm cart, struct axis axis, MPI_Datatype edge,
                                          double *first, double *last, long step)
{
    const int upward_tag = 2 * axis.dim;
    const int downward_tag = 2 * axis.dim + 1;
    MPI_Sendrecv(last, 1, edge, axis.upper, upward_tag, first - step, 1, edge, axis.lower,
                 upward_tag, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(first, 1, edge, axis.lower, downward_tag, last + step, 1, edge, axis.upper,
                 downward_tag, cart, MPI_STATUS_IGNORE);
}

/* One Jacobi sweep from `in` to `out`; adds the squared change and the new
 * values to totals[0] and totals[1]. */
EXAMPLE_NOT_A_REGION static void sweep(const struct block *in, struct block *out,
                                       double totals[2])
{
    for (long row = 1; row <= in->n; ++row) {
        for (long column = 1; column <= in->n; ++column) {
            const double value = 0.25 * (*at(in, row - 1, column) + *at(in, row + 1, column) +
                                         *at(in, row, column - 1) + *at(in, row, column + 1));
            const double change = value - *at(in, row, column);
            *at(out, row, column) = value;
            totals[0] += change * change;
            totals[1] += value;
        }
    }
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    long iterations = 200;
    long n = 512;
    long rows_of_ranks = 0;
    struct example_option options[] = {
        {"iterations", EXAMPLE_INTEGER, &iterations, 1, "number of halo exchanges and sweeps"},
        {"n", EXAMPLE_INTEGER, &n, 1, "points per side of each rank's square block (at most 16384)"},
        {"rows", EXAMPLE_INTEGER, &rows_of_ranks, 0,
         "rows of the grid of ranks, a divisor of the number of ranks (0: MPI_Dims_create chooses)"},
    };
    enum example_parse_result parsed = example_parse_options(
        argc, argv, "Jacobi sweeps with halo exchange on a periodic 2-D Cartesian grid.", options,
        sizeof options / sizeof options[0], rank == 0);
    if (parsed == EXAMPLE_RUN && n > 16384) {
        if (rank == 0) example_error(argv[0], "option --n must be at most 16384");
        parsed = EXAMPLE_BAD_USAGE;
    }
    if (parsed == EXAMPLE_RUN && rows_of_ranks > 0 && size % rows_of_ranks != 0) {
        if (rank == 0) example_error(argv[0], "option --rows must divide the number of ranks (%d)", size);
        parsed = EXAMPLE_BAD_USAGE;
    }
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);

    /* With one row (or one column) of ranks, both neighbours along that
     * dimension are the rank itself: it sends its halo to itself, as
     * stencil codes do at small rank counts. */
    int dims[2] = {(int)rows_of_ranks, 0};
    const int periodic[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart = MPI_COMM_NULL;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periodic, 0, &cart);
    int coords[2] = {0, 0};
    MPI_Cart_coords(cart, rank, 2, coords);
    const struct axis rows = axis_of(cart, 0);
    const struct axis columns = axis_of(cart, 1);

    const long stride = n + 2;
    MPI_Datatype row = MPI_DATATYPE_NULL;
    MPI_Datatype column = MPI_DATATYPE_NULL;
    MPI_Type_contiguous((int)n, MPI_DOUBLE, &row);
    MPI_Type_vector((int)n, 1, (int)stride, MPI_DOUBLE, &column);
    MPI_Type_commit(&row);
    MPI_Type_commit(&column);

    struct block current = {n, stride, malloc(sizeof(double) * (size_t)(stride * stride))};
    struct block next = {n, stride, malloc(sizeof(double) * (size_t)(stride * stride))};
    /* A flat field of ones with one extra unit at the global corner (0, 0):
     * the corner touches the periodic seams, so the bump spreads across every
     * neighbour relation at once, and a sweep keeps the global sum exact. */
    for (long i = 0; i < stride * stride; ++i) current.values[i] = next.values[i] = 1.0;
    if (coords[0] == 0 && coords[1] == 0) *at(&current, 1, 1) += 1.0;
    const double expected_sum = (double)n * (double)n * size + 1.0;

    double global[2] = {0.0, expected_sum};
    const double start = MPI_Wtime();
    for (long iteration = 0; iteration < iterations; ++iteration) {
        exchange(cart, rows, row, at(&current, 1, 1), at(&current, n, 1), stride);
        exchange(cart, columns, column, at(&current, 1, 1), at(&current, 1, n), 1);
        double local[2] = {0.0, 0.0};
        sweep(&current, &next, local);
        MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, cart);
        const struct block swapped = current;
        current = next;
        next = swapped;
    }
    const double elapsed = MPI_Wtime() - start;

    free(current.values);
    free(next.values);
    MPI_Type_free(&row);
    MPI_Type_free(&column);
    MPI_Comm_free(&cart);

    /* A wrong or missing halo breaks the conservation of the sum. */
    const int conserved = fabs(global[1] - expected_sum) <= 1e-9 * expected_sum;
    if (rank == 0) {
        if (conserved)
            printf("halo2d: %d ranks as %dx%d, %ldx%ld points each, %ld iterations in %.6f s, "
                   "residual %.6e\n",
                   size, dims[0], dims[1], n, n, iterations, elapsed, sqrt(global[0]));
        else
            example_error(argv[0], "the global sum drifted from %.17g to %.17g", expected_sum,
                          global[1]);
    }
    MPI_Finalize();
    return conserved ? EXIT_SUCCESS : EXIT_FAILURE;
}
