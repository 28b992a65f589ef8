/* General active target synchronization for the RMA records of the
 * collector: rank 0 exposes its window to all other ranks twice, each of
 * them puts one int into it. The first epoch ends in MPI_Win_wait; the
 * second in MPI_Win_test, called until the epoch ended (the origins hold
 * their complete back until rank 0 has tested once, so that at least one
 * test finds the epoch still open). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        MPI_Finalize();
        return EXIT_FAILURE;
    }
    int *base = calloc((size_t)size, sizeof(int));
    MPI_Win win;
    MPI_Win_create(base, (MPI_Aint)(sizeof(int) * (size_t)size), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Group world, partners;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int target = 0;
    if (rank == 0)
        MPI_Group_excl(world, 1, &target, &partners);
    else
        MPI_Group_incl(world, 1, &target, &partners);

    int tested = 0;
    for (int epoch = 0; epoch < 2; ++epoch) {
        if (rank == 0) {
            MPI_Win_post(partners, 0, win);
            if (epoch == 0) {
                MPI_Win_wait(win);
            } else {
                int done = 0;
                while (!done) {
                    MPI_Win_test(win, &done);
                    if (!tested++) MPI_Send(&tested, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
                }
            }
        } else {
            MPI_Win_start(partners, 0, win);
            MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
            if (epoch == 1 && rank == 1) MPI_Recv(&tested, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Win_complete(win);
        }
    }
    int wrong = 0;
    if (rank == 0)
        for (int r = 1; r < size; ++r) wrong += base[r] != r;
    MPI_Group_free(&partners);
    MPI_Group_free(&world);
    MPI_Win_free(&win);
    free(base);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
