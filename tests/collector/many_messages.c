/* Many small messages between two ranks (and optionally collectives): for
 * the trace-buffer flush test, the full-disk test and the overhead benchmark.
 * Usage: many_messages MESSAGES [COLLECTIVES [FILE_SIZE_LIMIT]]
 * FILE_SIZE_LIMIT (bytes) caps the size of every file the process writes
 * from then on, as a full disk would: writes beyond fail with EFBIG (the
 * signal SIGXFSZ is ignored). It applies after MPI_Init, whose shared-memory
 * files it would break. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 3) {
        const struct rlimit limit = {(rlim_t)atol(argv[3]), (rlim_t)atol(argv[3])};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) {
            perror("many_messages: setrlimit");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long messages = argc > 1 ? atol(argv[1]) : 1000;
    const long collectives = argc > 2 ? atol(argv[2]) : 0;
    const int peer = rank ^ 1;
    char byte = 0;
    const double start = MPI_Wtime();
    if (peer < size) {
        for (long i = 0; i < messages; ++i) {
            if (rank % 2 == 0) {
                MPI_Send(&byte, 1, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
                MPI_Recv(&byte, 1, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&byte, 1, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&byte, 1, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
            }
        }
    }
    int value = 1;
    int sum = 0;
    for (long i = 0; i < collectives; ++i) MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    const double elapsed = MPI_Wtime() - start;
    if (rank == 0) printf("many_messages: %ld messages, %ld collectives in %.6f s\n", messages, collectives, elapsed);
    MPI_Finalize();
    return 0;
}
