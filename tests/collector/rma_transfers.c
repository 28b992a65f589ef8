/* One-sided communication beyond fence epochs, for the RMA records of the
 * collector: an allocated window with a passive target epoch of atomic
 * operations completed by a flush and an unlock (two of them completed at
 * the origin before by a local flush; a put to MPI_PROC_NULL, which
 * transfers nothing; and a request-based put its MPI_Wait completes at the
 * origin), an accumulate completed by MPI_Win_unlock_all; then a dynamic
 * window with two fences. Every rank targets its right neighbour. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int right = (rank + 1) % size;

    int *base = NULL;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    for (int i = 0; i < 4; ++i) base[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    int one = 1, old = 0, compare = 0, result = 0, values[2] = {5, 6}, fetched[2] = {0, 0};
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Fetch_and_op(&one, &old, MPI_INT, right, 0, MPI_SUM, win);
    MPI_Win_flush(right, win);
    MPI_Compare_and_swap(&one, &compare, &result, MPI_INT, right, 1, win);
    MPI_Get_accumulate(values, 2, MPI_INT, fetched, 2, MPI_INT, right, 2, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_flush_local(right, win);
    MPI_Put(values, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);
    MPI_Request put;
    MPI_Rput(values, 1, MPI_INT, right, 3, 1, MPI_INT, win, &put);
    MPI_Wait(&put, MPI_STATUS_IGNORE);
    MPI_Win_unlock(right, win);
    MPI_Win_lock_all(0, win);
    MPI_Accumulate(&one, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);

    MPI_Win dynamic;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dynamic);
    MPI_Win_fence(0, dynamic);
    MPI_Win_fence(0, dynamic);
    MPI_Win_free(&dynamic);
    MPI_Finalize();
    return old == 0 && result == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
