/* A run on exactly 4 ranks through the MPI families recorded beyond plain
 * point-to-point and collectives: matched probes, neighborhood collectives,
 * MPI_Comm_idup, an inter-communicator, one-sided communication, MPI-IO, a
 * polling loop and MPI_Comm_disconnect. Counts, sizes and peers are fixed by
 * the code below; check_trace.py derives its expectations from this file.
 * argv[1], when given, is the directory for the MPI-IO file. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 4, PROBE_TAG = 21, IPROBE_TAG = 22, IDUP_TAG = 23, INTER_TAG = 24, POLL_TAG = 25 };

/* Ranks 0 -> 1 and 2 -> 3: one message received with MPI_Mprobe/MPI_Mrecv
 * (3 ints), one with MPI_Improbe/MPI_Imrecv (5 ints); a probe of
 * MPI_PROC_NULL yields MPI_MESSAGE_NO_PROC, whose receive records nothing. */
static void matched_probes(int rank)
{
    int data[5] = {0};
    if (rank % 2 == 0) {
        MPI_Send(data, 3, MPI_INT, rank + 1, PROBE_TAG, MPI_COMM_WORLD);
        MPI_Send(data, 5, MPI_INT, rank + 1, IPROBE_TAG, MPI_COMM_WORLD);
    } else {
        MPI_Message message;
        MPI_Status status;
        MPI_Mprobe(MPI_ANY_SOURCE, PROBE_TAG, MPI_COMM_WORLD, &message, &status);
        MPI_Mrecv(data, 3, MPI_INT, &message, MPI_STATUS_IGNORE);
        int flag = 0;
        while (!flag) MPI_Improbe(rank - 1, IPROBE_TAG, MPI_COMM_WORLD, &flag, &message, &status);
        MPI_Request request;
        MPI_Imrecv(data, 5, MPI_INT, &message, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Message none;
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &none, MPI_STATUS_IGNORE);
    MPI_Mrecv(data, 1, MPI_INT, &none, MPI_STATUS_IGNORE);
}

/* A periodic ring as a Cartesian communicator: each rank exchanges one int
 * with its two neighbours, blocking and non-blocking. */
static void neighborhood(void)
{
    const int dims[1] = {N};
    const int periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int out[2] = {1, 2};
    int in[2] = {0};
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    MPI_Neighbor_allgather(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    MPI_Request request;
    MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Comm_free(&ring);
}

/* MPI_Comm_idup of the world, then rank 3 sends 2 ints to rank 0 on it. */
static void idup(int rank)
{
    MPI_Comm copy;
    MPI_Request request;
    MPI_Comm_idup(MPI_COMM_WORLD, &copy, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    int data[2] = {0};
    if (rank == 3) MPI_Send(data, 2, MPI_INT, 0, IDUP_TAG, copy);
    if (rank == 0) MPI_Recv(data, 2, MPI_INT, 3, IDUP_TAG, copy, MPI_STATUS_IGNORE);
    MPI_Comm_free(&copy);
}

/* Groups {0,1} and {2,3} joined by an inter-communicator: local rank 0 of
 * the first group (world 0) sends 4 ints to remote rank 1 (world 3); then a
 * broadcast of 6 ints rooted at world rank 1 (MPI_ROOT) to the other group,
 * MPI_Comm_disconnect frees the inter-communicator. */
static void intercommunicator(int rank)
{
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : 1, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 11, &inter);
    int data[6] = {0};
    if (rank == 0) MPI_Send(data, 4, MPI_INT, 1, INTER_TAG, inter);
    if (rank == 3) MPI_Recv(data, 4, MPI_INT, 0, INTER_TAG, inter, MPI_STATUS_IGNORE);
    const int root = rank == 1 ? MPI_ROOT : rank == 0 ? MPI_PROC_NULL : 1;
    MPI_Bcast(data, 6, MPI_INT, root, inter);
    MPI_Comm_disconnect(&inter);
    MPI_Comm_free(&half);
}

/* A window of 4 ints per rank: fences around a put to the right neighbour
 * and an accumulate to rank 0. */
static void one_sided(int rank)
{
    int *base = NULL;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    int value = rank;
    MPI_Win_fence(0, win);
    MPI_Put(&value, 1, MPI_INT, (rank + 1) % N, 0, 1, MPI_INT, win);
    MPI_Accumulate(&value, 1, MPI_INT, 0, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

/* Each rank writes 8 ints at its own offset, collectively, and reads them
 * back with a non-blocking read completed by MPI_Wait. */
static void file_io(int rank, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/families.dat", dir);
    MPI_File file;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &file);
    int data[8] = {0};
    const MPI_Offset offset = (MPI_Offset)rank * (MPI_Offset)sizeof data;
    MPI_File_write_at_all(file, offset, data, 8, MPI_INT, MPI_STATUS_IGNORE);
    MPI_Request request;
    MPI_File_iread_at(file, offset, data, 8, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_close(&file);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
    /* Calls that fail (files return errors by default): an open of a file
     * in no directory, a read and a close of no file. The collector records
     * them as calls only and must not trip over them. */
    MPI_File missing = MPI_FILE_NULL;
    MPI_File_open(MPI_COMM_WORLD, "/nonexistent-hindsight-dir/x.dat", MPI_MODE_RDONLY, MPI_INFO_NULL, &missing);
    int ignored = 0;
    MPI_File_read(MPI_FILE_NULL, &ignored, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File none = MPI_FILE_NULL;
    MPI_File_close(&none);
}

/* Rank 1 polls an Irecv from rank 0 with MPI_Test and MPI_Testsome until
 * rank 0, after a barrier that rank 1 has left, sends 1 int: the loop runs
 * until then, unsuccessfully. */
static void polling(int rank)
{
    int data = 0;
    if (rank == 1) {
        MPI_Request request;
        MPI_Irecv(&data, 1, MPI_INT, 0, POLL_TAG, MPI_COMM_WORLD, &request);
        MPI_Barrier(MPI_COMM_WORLD);
        int flag = 0;
        int outcount = 0;
        int index = 0;
        MPI_Status status;
        for (int i = 0; i < 2000; ++i) {
            MPI_Testsome(1, &request, &outcount, &index, &status);
            if (outcount > 0) return;
        }
        while (!flag) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            const double until = MPI_Wtime() + 0.05;
            while (MPI_Wtime() < until) {
            }
            MPI_Send(&data, 1, MPI_INT, 1, POLL_TAG, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != N) {
        if (rank == 0) fprintf(stderr, "families: needs exactly %d ranks\n", N);
        MPI_Finalize();
        return 2;
    }
    matched_probes(rank);
    neighborhood();
    idup(rank);
    intercommunicator(rank);
    one_sided(rank);
    file_io(rank, argc > 1 ? argv[1] : ".");
    polling(rank);
    MPI_Finalize();
    return 0;
}
