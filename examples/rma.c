/* One-sided communication in fence epochs with one late rank: every rank
 * puts a block of ints into the window of its right neighbour, the last
 * rank reaches the fence that ends that epoch --delay seconds late (extra
 * work), so that the others wait inside MPI_Win_fence; then every rank
 * gets the block its left neighbour received, and checks it. Last, a
 * general active target epoch with a late target: rank 0 exposes its
 * window to all other ranks (MPI_Win_post ... MPI_Win_wait) --delay
 * seconds late, while each of them opens its access epoch at once
 * (MPI_Win_start), puts its rank number into rank 0's window and closes
 * it (MPI_Win_complete): they wait for rank 0's post (Late Post). Then a
 * passive target epoch: rank 0 locks the last rank's window exclusively
 * and holds the lock --delay seconds, while the ranks between ask for the
 * same lock after it: they wait for it (Lock Contention). Last, the last
 * rank computes --delay seconds without calling MPI while rank 0 locks its
 * window and puts an int: an MPI that makes no progress on its own (MPICH)
 * grants the lock only once the target calls MPI again (Wait for
 * Progress). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

/* The late rank's computation before the fence, in a call path of its own
 * (main/delayed_work); it busy-waits, so it is computation. */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

/* Rank 0's computation before it posts its window (main/late_post_work). */
__attribute__((noinline)) void late_post_work(double seconds);
__attribute__((noinline)) void late_post_work(double seconds)
{
    example_spin(seconds);
}

/* Rank 0's computation while it holds the lock (main/held_lock_work). */
__attribute__((noinline)) void held_lock_work(double seconds);
__attribute__((noinline)) void held_lock_work(double seconds)
{
    example_spin(seconds);
}

/* The last rank's computation, outside MPI, while rank 0 asks for a lock
 * on its window (main/unprogressed_work). */
__attribute__((noinline)) void unprogressed_work(double seconds);
__attribute__((noinline)) void unprogressed_work(double seconds)
{
    example_spin(seconds);
}

enum { BLOCK = 256 }; /* ints per put and per get */

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    double delay = 0.1;
    struct example_option options[] = {
        {"delay", EXAMPLE_SECONDS, &delay, 0,
         "how late the last rank reaches the fence after the puts, rank 0 posts its window, how long it "
         "holds its lock, and how long the last rank computes outside MPI while rank 0 locks its window"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "Fence epochs (MPI_Win_fence) of puts to the right neighbour and gets from the left "
                    "one, the last rank late into the fence that ends the puts; then an epoch of puts to "
                    "rank 0, which posts its window late (MPI_Win_post/start/complete/wait); then rank 0 "
                    "holds an exclusive lock on the last rank's window that the ranks between wait for "
                    "(MPI_Win_lock/unlock); last, rank 0 locks the last rank's window while that rank "
                    "computes outside MPI.",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 2) {
        if (rank == 0) example_error(argv[0], "needs at least 2 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }
    const int last = size - 1;
    const int right = (rank + 1) % size;
    const int left = (rank + size - 1) % size;

    int *window = malloc(sizeof(int) * BLOCK);
    int *mine = malloc(sizeof(int) * BLOCK);
    int *fetched = malloc(sizeof(int) * BLOCK);
    if (!window || !mine || !fetched) {
        example_error(argv[0], "rank %d: out of memory", rank);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    for (int i = 0; i < BLOCK; ++i) {
        window[i] = -1;
        mine[i] = rank * BLOCK + i;
    }
    MPI_Win win;
    MPI_Win_create(window, (MPI_Aint)(sizeof(int) * BLOCK), (int)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

    /* Epoch 1: one put to the right; the last rank ends it late. */
    MPI_Win_fence(0, win);
    MPI_Put(mine, BLOCK, MPI_INT, right, 0, BLOCK, MPI_INT, win);
    if (rank == last) delayed_work(delay);
    MPI_Win_fence(0, win);

    /* Epoch 2: one get from the left of what the left's left put there. */
    MPI_Get(fetched, BLOCK, MPI_INT, left, 0, BLOCK, MPI_INT, win);
    MPI_Win_fence(0, win);

    const int origin = (left + size - 1) % size;
    long wrong = 0;
    for (int i = 0; i < BLOCK; ++i) {
        wrong += window[i] != left * BLOCK + i;
        wrong += fetched[i] != origin * BLOCK + i;
    }

    /* Epoch 3: rank 0 posts late; each other rank puts its number at its
     * own place in rank 0's window (BLOCK ints hold at most BLOCK ranks). */
    MPI_Group world;
    MPI_Group partners;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    const int target = 0;
    if (rank == 0) {
        MPI_Group_excl(world, 1, &target, &partners);
        late_post_work(delay);
        MPI_Win_post(partners, 0, win);
        MPI_Win_wait(win);
        for (int r = 1; r < size && r < BLOCK; ++r) wrong += window[r] != r;
    } else {
        MPI_Group_incl(world, 1, &target, &partners);
        MPI_Win_start(partners, 0, win);
        if (rank < BLOCK) MPI_Put(&rank, 1, MPI_INT, target, rank, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Group_free(&partners);
    MPI_Group_free(&world);

    /* Epoch 4: rank 0 locks the last rank's window exclusively, puts an int
     * at its end and flushes it, which makes MPI take the lock; after the
     * barrier the ranks between ask for the same lock and put theirs. */
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, last, 0, win);
        MPI_Put(&rank, 1, MPI_INT, last, BLOCK - 1, 1, MPI_INT, win);
        MPI_Win_flush(last, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        held_lock_work(delay);
        MPI_Win_unlock(last, win);
    } else if (rank != last) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, last, 0, win);
        MPI_Put(&rank, 1, MPI_INT, last, BLOCK - 1, 1, MPI_INT, win);
        MPI_Win_unlock(last, win);
    }

    /* Epoch 5: rank 0 locks the last rank's window (shared) and puts an int
     * while the last rank computes without calling MPI. Rank 0 waits a
     * tenth of it first, so that its request finds the target computing,
     * not still inside the barrier. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == last) {
        unprogressed_work(delay);
    } else if (rank == 0) {
        example_spin(delay / 10);
        MPI_Win_lock(MPI_LOCK_SHARED, last, 0, win);
        MPI_Put(&rank, 1, MPI_INT, last, BLOCK - 2, 1, MPI_INT, win);
        MPI_Win_unlock(last, win);
    }
    MPI_Win_free(&win);
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld values are wrong", rank, wrong);
    else if (rank == 0)
        printf("rma: %d ranks, %d ints put and got each, the last rank %g s late, then rank 0\n", size, BLOCK,
               delay);
    free(window);
    free(mine);
    free(fetched);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
