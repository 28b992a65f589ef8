/* A run on exactly 4 ranks that makes every kind of MPI call the collector
 * records, with counts, sizes, roots and communicators fixed by the code
 * below; check_trace.py derives its expectations from this file. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "hindsight.h"

enum { N = 4, RING_TAG = 5, PERSISTENT_TAG = 6, NEVER_SENT_TAG = 99 };

static void point_to_point(int rank)
{
    const int right = (rank + 1) % N;
    const int left = (rank + N - 1) % N;
    int out[100] = {0};
    int in[100] = {0};
    MPI_Request requests[2];
    MPI_Status statuses[2];

    /* 1. A ring step with Isend/Irecv and Waitall: 400 bytes each way. */
    MPI_Irecv(in, 100, MPI_INT, left, RING_TAG, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, 100, MPI_INT, right, RING_TAG, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, statuses);

    /* 2. Persistent requests started three times: 8 bytes each. */
    MPI_Recv_init(in, 2, MPI_INT, left, PERSISTENT_TAG, MPI_COMM_WORLD, &requests[0]);
    MPI_Send_init(out, 2, MPI_INT, right, PERSISTENT_TAG, MPI_COMM_WORLD, &requests[1]);
    for (int i = 0; i < 3; ++i) {
        MPI_Startall(2, requests);
        MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
        MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&requests[0]);
    MPI_Request_free(&requests[1]);

    /* 3. Blocking: Sendrecv right/left (12 bytes), Ssend/Recv pairs (even to odd). */
    MPI_Sendrecv(out, 3, MPI_INT, right, 7, in, 3, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank % 2 == 0) {
        MPI_Ssend(out, 4, MPI_INT, rank + 1, 8, MPI_COMM_WORLD);
    } else {
        MPI_Recv(in, 4, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    /* To MPI_PROC_NULL: a region, but no message. */
    MPI_Send(out, 1, MPI_INT, MPI_PROC_NULL, 9, MPI_COMM_WORLD);

    /* 4. A receive nobody matches, cancelled. */
    MPI_Irecv(in, 1, MPI_INT, MPI_ANY_SOURCE, NEVER_SENT_TAG, MPI_COMM_WORLD, &requests[0]);
    MPI_Cancel(&requests[0]);
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);

    /* 5. Testing until done: Irecv + Isend (20 bytes), Testall until both complete. */
    MPI_Irecv(in, 5, MPI_INT, left, 10, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out, 5, MPI_INT, right, 10, MPI_COMM_WORLD, &requests[1]);
    int done = 0;
    while (!done) MPI_Testall(2, requests, &done, statuses);
}

static void collectives(int rank)
{
    int a[64] = {0};
    int b[64] = {0};
    double d[3] = {0};
    double e[3] = {0};
    int counts[N];
    int displs[N];
    MPI_Datatype types[N];
    for (int i = 0; i < N; ++i) {
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
    }
    MPI_Bcast(a, 10, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Reduce(d, e, 3, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);
    int gather_counts[N] = {1, 2, 3, 4};
    int gather_displs[N] = {0, 1, 3, 6};
    MPI_Gatherv(a, rank + 1, MPI_INT, b, gather_counts, gather_displs, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 3, MPI_COMM_WORLD);
    MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoallv(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD);
    int wdispls[N] = {0, 4, 8, 12};
    MPI_Alltoallw(a, counts, wdispls, types, b, counts, wdispls, types, MPI_COMM_WORLD);
    int scatter_counts[N] = {1, 2, 1, 2};
    MPI_Reduce_scatter(a, b, scatter_counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, a, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Request request;
    MPI_Ibcast(a, 5, MPI_INT, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

static void communicators(int rank)
{
    MPI_Comm half, half_dup, cart, inter, merged;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : 1, rank, &half);
    MPI_Barrier(half);
    MPI_Comm_dup(half, &half_dup);
    int value = 1;
    int sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, half_dup);
    const int dims[1] = {N};
    const int periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    /* The same ring as a distributed graph, reordering allowed. */
    const int next = (rank + 1) % N;
    const int previous = (rank + N - 1) % N;
    MPI_Comm graph;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &previous, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 1, &graph);
    MPI_Comm_free(&graph);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 11, &inter);
    MPI_Intercomm_merge(inter, rank < 2 ? 0 : 1, &merged);
    MPI_Barrier(merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&half_dup);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != N) {
        if (rank == 0) fprintf(stderr, "coverage: needs exactly %d ranks\n", N);
        MPI_Finalize();
        return 2;
    }
    hindsight_region_begin("point_to_point");
    point_to_point(rank);
    hindsight_region_end("point_to_point");
    hindsight_region_begin("collectives");
    collectives(rank);
    hindsight_region_end("collectives");
    communicators(rank);

    /* Not recorded: between Pcontrol(0) and Pcontrol(1). */
    MPI_Pcontrol(0);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(1);
    MPI_Finalize();
    return 0;
}
