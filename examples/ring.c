/* Every rank exchanges a message with both neighbours on a ring, through
 * nonblocking calls completed in three rotating ways (MPI_Waitall, MPI_Wait,
 * MPI_Test then MPI_Waitall). Behaviour and call counts: doc/examples.md. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/regions.h"
#include "support/start.h"

/* Tags say which way a message travels, so that with two ranks (left and
 * right neighbour being the same rank) the two messages still match up. */
enum { RIGHTWARDS_TAG = 1, LEFTWARDS_TAG = 2 };
enum { REQUESTS = 4 };

/* Completes the round's requests in the way that round `round` exercises. */
EXAMPLE_NOT_A_REGION static void complete(long round, MPI_Request requests[REQUESTS])
{
    /* A real array rather than MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's
     * definition of that constant as a zero-sized array and warns. */
    MPI_Status statuses[REQUESTS];
    switch (round % 3) {
    case 0:
        MPI_Waitall(REQUESTS, requests, statuses);
        break;
    case 1:
        for (int i = 0; i < REQUESTS; ++i) MPI_Wait(&requests[i], MPI_STATUS_IGNORE);
        break;
    default: {
        /* One test each (which may or may not complete the request; a
         * completed one becomes MPI_REQUEST_NULL), then wait for the rest. */
        for (int i = 0; i < REQUESTS; ++i) {
            int done = 0;
            MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE);
        }
        MPI_Waitall(REQUESTS, requests, statuses);
        break;
    }
    }
}

/* Element `i` of the message that `sender` sends in round `round`. */
EXAMPLE_NOT_A_REGION static int payload(int sender, long round, long i)
{
    return (int)((sender * 1000003L + round * 101L + i) % 1000000007L);
}

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    long iterations = 99;
    long elements = 256;
    struct example_option options[] = {
        {"iterations", EXAMPLE_INTEGER, &iterations, 1, "number of exchange rounds"},
        {"elements", EXAMPLE_INTEGER, &elements, 1, "ints per message (at most 1048576)"},
    };
    enum example_parse_result parsed = example_parse_options(
        argc, argv, "Each rank exchanges a message with both ring neighbours every round.",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed == EXAMPLE_RUN && elements > 1048576) {
        if (rank == 0) example_error(argv[0], "option --elements must be at most 1048576");
        parsed = EXAMPLE_BAD_USAGE;
    }
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);

    const int left = (rank + size - 1) % size;
    const int right = (rank + 1) % size;
    const int count = (int)elements;
    int *outgoing = malloc(sizeof(int) * (size_t)count);
    int *from_left = malloc(sizeof(int) * (size_t)count);
    int *from_right = malloc(sizeof(int) * (size_t)count);
    long mismatches = 0;

    const double start = MPI_Wtime();
    for (long round = 0; round < iterations; ++round) {
        for (long i = 0; i < count; ++i) outgoing[i] = payload(rank, round, i);
        MPI_Request requests[REQUESTS];
        MPI_Irecv(from_left, count, MPI_INT, left, RIGHTWARDS_TAG, MPI_COMM_WORLD, &requests[0]);
        MPI_Irecv(from_right, count, MPI_INT, right, LEFTWARDS_TAG, MPI_COMM_WORLD, &requests[1]);
        MPI_Isend(outgoing, count, MPI_INT, right, RIGHTWARDS_TAG, MPI_COMM_WORLD, &requests[2]);
        MPI_Isend(outgoing, count, MPI_INT, left, LEFTWARDS_TAG, MPI_COMM_WORLD, &requests[3]);
        complete(round, requests);
        for (long i = 0; i < count; ++i) {
            mismatches += from_left[i] != payload(left, round, i);
            mismatches += from_right[i] != payload(right, round, i);
        }
    }
    const double elapsed = MPI_Wtime() - start;
    free(outgoing);
    free(from_left);
    free(from_right);

    if (mismatches != 0)
        example_error(argv[0], "rank %d: %ld received ints are wrong", rank, mismatches);
    else if (rank == 0)
        printf("ring: %d ranks, %ld rounds of %ld ints each way in %.6f s (%.3f us per round)\n",
               size, iterations, elements, elapsed, 1e6 * elapsed / (double)iterations);
    MPI_Finalize();
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
