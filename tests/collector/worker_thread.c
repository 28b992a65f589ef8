/* MPI calls of a thread other than the main one (a POSIX thread, not an
 * OpenMP one), which the collector records on that thread's own location:
 * the worker thread calls MPI_Comm_size WORKER_CALLS times, the main thread
 * MPI_Barrier once between MPI_Init_thread and MPI_Finalize. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

enum { WORKER_CALLS = 3 };

static void *worker(void *unused)
{
    (void)unused;
    int size = 0;
    for (int i = 0; i < WORKER_CALLS; ++i) MPI_Comm_size(MPI_COMM_WORLD, &size);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "worker_thread: the MPI library offers no MPI_THREAD_MULTIPLE\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pthread_t thread;
    if (pthread_create(&thread, NULL, worker, NULL) != 0 || pthread_join(thread, NULL) != 0) {
        fprintf(stderr, "worker_thread: cannot run a thread\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
