/* Cost of an intercepted MPI call: times a loop of one MPI function and
 * prints nanoseconds per call. Run it with and without the collector; the
 * difference is what the wrapper adds.
 * Usage: call_cost [CALLS] [FUNCTION]
 *   comm_rank   MPI_Comm_rank, the cheapest MPI function (ENTER + LEAVE)
 *   win_sync    MPI_Win_sync on a window of this rank: a one-sided region
 *   neighbor    MPI_Neighbor_alltoall of one int on a periodic ring of
 *               one rank (its own two neighbours): a collective operation
 *               whose receive sources the collector finds in the topology
 *   test        unsuccessful MPI_Test of a receive nobody matches: the
 *               polling loop the collector records compactly
 *   file_read   MPI_File_read_at of one int from a file of this rank (in
 *               the page cache): an I/O operation with its bytes
 *   gats        general active target epochs of the rank with itself
 *               (MPI_Win_post, _start, _complete, _wait; no transfer):
 *               per call of the four, each writing an RMA_GROUP_SYNC */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const long calls = argc > 1 ? atol(argv[1]) : 1000000;
    const char *function = argc > 2 ? argv[2] : "comm_rank";
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double elapsed = 0;
    if (strcmp(function, "comm_rank") == 0) {
        const double start = MPI_Wtime();
        for (long i = 0; i < calls; ++i) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        elapsed = MPI_Wtime() - start;
    } else if (strcmp(function, "win_sync") == 0) {
        int *base = NULL;
        MPI_Win win;
        MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &base, &win);
        MPI_Win_lock_all(0, win);
        const double start = MPI_Wtime();
        for (long i = 0; i < calls; ++i) MPI_Win_sync(win);
        elapsed = MPI_Wtime() - start;
        MPI_Win_unlock_all(win);
        MPI_Win_free(&win);
    } else if (strcmp(function, "neighbor") == 0) {
        const int dims[1] = {1};
        const int periods[1] = {1};
        MPI_Comm ring;
        MPI_Cart_create(MPI_COMM_SELF, 1, dims, periods, 0, &ring);
        int out[2] = {1, 2};
        int in[2] = {0, 0};
        const double start = MPI_Wtime();
        for (long i = 0; i < calls; ++i) MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
        elapsed = MPI_Wtime() - start;
        MPI_Comm_free(&ring);
    } else if (strcmp(function, "test") == 0) {
        int data = 0;
        int flag = 0;
        MPI_Request request;
        MPI_Irecv(&data, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_SELF, &request);
        const double start = MPI_Wtime();
        for (long i = 0; i < calls && !flag; ++i) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
        elapsed = MPI_Wtime() - start;
        MPI_Cancel(&request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (strcmp(function, "file_read") == 0) {
        char name[256];
        const char *dir = getenv("TMPDIR");
        snprintf(name, sizeof name, "%s/call-cost-%d.dat", dir && *dir ? dir : "/tmp", (int)getpid());
        MPI_File file;
        if (MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &file) != MPI_SUCCESS) {
            fprintf(stderr, "call_cost: cannot open %s\n", name);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        int data = 42;
        MPI_File_write_at(file, 0, &data, 1, MPI_INT, MPI_STATUS_IGNORE);
        const double start = MPI_Wtime();
        for (long i = 0; i < calls; ++i) MPI_File_read_at(file, 0, &data, 1, MPI_INT, MPI_STATUS_IGNORE);
        elapsed = MPI_Wtime() - start;
        MPI_File_close(&file);
    } else if (strcmp(function, "gats") == 0) {
        int *base = NULL;
        MPI_Win win;
        MPI_Group self;
        MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &base, &win);
        MPI_Comm_group(MPI_COMM_SELF, &self);
        const long epochs = calls / 4;
        const double start = MPI_Wtime();
        for (long i = 0; i < epochs; ++i) {
            MPI_Win_post(self, 0, win);
            MPI_Win_start(self, 0, win);
            MPI_Win_complete(win);
            MPI_Win_wait(win);
        }
        elapsed = MPI_Wtime() - start;
        MPI_Group_free(&self);
        MPI_Win_free(&win);
    } else {
        if (rank == 0) fprintf(stderr, "call_cost: unknown function '%s'\n", function);
        MPI_Finalize();
        return 2;
    }
    if (rank == 0) printf("call_cost: %.1f ns per call of %s\n", 1e9 * elapsed / (double)calls, function);
    MPI_Finalize();
    return 0;
}
