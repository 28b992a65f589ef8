/* A distributed matrix transpose, the communication step of FFT and
 * conjugate-gradient codes: every rank owns a band of rows and sends one
 * block to every rank, itself included (the diagonal block), through
 * MPI_Irecv, MPI_Isend and MPI_Waitall. Optionally one rank computes longer
 * before its sends, so that the others wait for its blocks. Behaviour and
 * call counts: doc/examples.md. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/regions.h"
#include "support/spin.h"
#include "support/start.h"

enum { BLOCK_TAG = 3 };

/* The delayed rank's extra computation before its sends, a function of its
 * own so that the delay has a call path of its own (main/delayed_work). */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

/* Element (row, column) of the global matrix in iteration `iteration`. */
EXAMPLE_NOT_A_REGION static double element(long row, long column, long iteration)
{
    return (double)(row * 7919 + column * 31 + iteration);
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    long iterations = 20;
    long block = 64;
    double delay = 0.0;
    long delay_rank = 0;
    struct example_option options[] = {
        {"iterations", EXAMPLE_INTEGER, &iterations, 1, "number of transposes"},
        {"block", EXAMPLE_INTEGER, &block, 1, "rows and columns of the block each rank sends each rank (at most 1024)"},
        {"delay", EXAMPLE_SECONDS, &delay, 0, "the delayed rank computes this long in delayed_work() before each transpose"},
        {"delay-rank", EXAMPLE_INTEGER, &delay_rank, 0, "the delayed rank"},
    };
    enum example_parse_result parsed = example_parse_options(
        argc, argv, "Transposes a matrix distributed by rows: one block from every rank to every rank.",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed == EXAMPLE_RUN && (block > 1024 || delay_rank >= size)) {
        if (rank == 0)
            example_error(argv[0], block > 1024 ? "option --block must be at most 1024"
                                                : "option --delay-rank must be below the number of ranks");
        parsed = EXAMPLE_BAD_USAGE;
    }
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);

    /* The global matrix has size * block rows and columns; this rank owns
     * rows rank * block ... and sends columns p * block ... of them to rank p,
     * which stores them as its rows of the transpose. */
    const long b = block;
    const long width = (long)size * b;
    const size_t band = (size_t)(b * width);
    double *rows = malloc(sizeof(double) * band);
    double *outgoing = malloc(sizeof(double) * band);
    double *incoming = malloc(sizeof(double) * band);
    double *transposed = malloc(sizeof(double) * band);
    MPI_Request *requests = malloc(sizeof(MPI_Request) * 2 * (size_t)size);
    MPI_Status *statuses = malloc(sizeof(MPI_Status) * 2 * (size_t)size);
    long mismatches = 0;

    const double start = MPI_Wtime();
    for (long iteration = 0; iteration < iterations; ++iteration) {
        for (long i = 0; i < b; ++i)
            for (long j = 0; j < width; ++j) rows[i * width + j] = element(rank * b + i, j, iteration);
        if (delay > 0.0 && rank == delay_rank) delayed_work(delay);
        /* Block p: the b x b columns p * b ... of this band, packed row by row. */
        for (long p = 0; p < size; ++p)
            for (long i = 0; i < b; ++i)
                for (long j = 0; j < b; ++j) outgoing[(p * b + i) * b + j] = rows[i * width + p * b + j];
        const int count = (int)(b * b);
        for (int p = 0; p < size; ++p)
            MPI_Irecv(incoming + (size_t)p * (size_t)count, count, MPI_DOUBLE, p, BLOCK_TAG, MPI_COMM_WORLD,
                      &requests[p]);
        for (int p = 0; p < size; ++p)
            MPI_Isend(outgoing + (size_t)p * (size_t)count, count, MPI_DOUBLE, p, BLOCK_TAG, MPI_COMM_WORLD,
                      &requests[size + p]);
        MPI_Waitall(2 * size, requests, statuses);
        /* Block p holds rows p * b ... of the band's columns: transposed, it
         * fills columns p * b ... of this rank's rows of the transpose. */
        for (long p = 0; p < size; ++p)
            for (long i = 0; i < b; ++i)
                for (long j = 0; j < b; ++j) transposed[j * width + p * b + i] = incoming[(p * b + i) * b + j];
        for (long i = 0; i < b; ++i)
            for (long j = 0; j < width; ++j)
                mismatches += transposed[i * width + j] != element(j, rank * b + i, iteration);
    }
    const double elapsed = MPI_Wtime() - start;
    free(rows);
    free(outgoing);
    free(incoming);
    free(transposed);
    free(requests);
    free(statuses);

    if (mismatches != 0)
        example_error(argv[0], "rank %d: %ld elements of the transpose are wrong", rank, mismatches);
    else if (rank == 0)
        printf("transpose: %d ranks, %ld transposes of %ldx%ld blocks in %.6f s\n", size, iterations, b, b,
               elapsed);
    MPI_Finalize();
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
