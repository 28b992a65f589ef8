/* Collective MPI-IO with one late rank: every rank writes its block of a
 * shared file with MPI_File_write_at_all, the last rank after --delay
 * seconds of extra work, so that the others wait inside the collective
 * write; then all read the whole file back with MPI_File_read_all (no
 * one late) and check it; last, each rank alone rewrites its block with the
 * non-blocking MPI_File_iwrite_at and reads it back with MPI_File_read_at
 * (individual operations, which wait for nobody). The file lies in the
 * temporary directory and is deleted when closed; doc/examples.md derives
 * the waits. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "support/options.h"
#include "support/spin.h"
#include "support/start.h"

/* The late rank's computation before the collective write, in a call path
 * of its own (main/delayed_work); it busy-waits, so it is computation. */
__attribute__((noinline)) void delayed_work(double seconds);
__attribute__((noinline)) void delayed_work(double seconds)
{
    example_spin(seconds);
}

enum { BLOCK = 1024 }; /* ints per rank */

int main(int argc, char **argv)
{
    int rank = 0;
    int size = 0;
    example_start(&argc, &argv, &rank, &size);

    double delay = 0.1;
    struct example_option options[] = {
        {"delay", EXAMPLE_SECONDS, &delay, 0, "how late the last rank joins the collective write"},
    };
    const enum example_parse_result parsed = example_parse_options(
        argc, argv, "A collective file write (MPI_File_write_at_all) with a late last rank, then a "
                    "collective read of the whole file (MPI_File_read_all).",
        options, sizeof options / sizeof options[0], rank == 0);
    if (parsed != EXAMPLE_RUN) return example_stop(parsed);
    if (size < 2) {
        if (rank == 0) example_error(argv[0], "needs at least 2 ranks, got %d", size);
        return example_stop(EXAMPLE_BAD_USAGE);
    }
    const int last = size - 1;

    /* One file name for all ranks: rank 0's process id makes it unique. */
    long id = (long)getpid();
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    const char *dir = getenv("TMPDIR");
    char name[512];
    snprintf(name, sizeof name, "%s/hindsight-fileio-%ld.dat", dir && *dir ? dir : "/tmp", id);

    int *block = malloc(sizeof(int) * BLOCK);
    int *whole = malloc(sizeof(int) * BLOCK * (size_t)size);
    if (!block || !whole) {
        example_error(argv[0], "rank %d: out of memory", rank);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }
    for (int i = 0; i < BLOCK; ++i) block[i] = rank * BLOCK + i;

    MPI_File file;
    if (MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                      MPI_INFO_NULL, &file) != MPI_SUCCESS) {
        if (rank == 0) example_error(argv[0], "cannot open %s", name);
        free(block);
        free(whole);
        MPI_Finalize();
        return EXIT_FAILURE;
    }
    /* Start together so that the delay is the only reason to wait. */
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();

    /* 1. The last rank joins the collective write late. */
    if (rank == last) delayed_work(delay);
    const MPI_Offset at = (MPI_Offset)rank * BLOCK * (MPI_Offset)sizeof(int);
    MPI_File_write_at_all(file, at, block, BLOCK, MPI_INT, MPI_STATUS_IGNORE);

    /* 2. Everybody reads the whole file back, together. */
    MPI_File_seek(file, 0, MPI_SEEK_SET);
    MPI_Status status;
    MPI_File_read_all(file, whole, BLOCK * size, MPI_INT, &status);
    int read = 0;
    MPI_Get_count(&status, MPI_INT, &read);
    long wrong = read != BLOCK * size;
    for (int i = 0; i < read; ++i) wrong += whole[i] != i;

    /* 3. Each rank on its own: rewrite its block without blocking, then
     * read it back. */
    MPI_Request request;
    MPI_File_iwrite_at(file, at, block, BLOCK, MPI_INT, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_File_read_at(file, at, whole, BLOCK, MPI_INT, &status);
    MPI_Get_count(&status, MPI_INT, &read);
    wrong += read != BLOCK;
    for (int i = 0; i < read; ++i) wrong += whole[i] != block[i];
    MPI_File_close(&file);

    const double elapsed = MPI_Wtime() - start;
    if (wrong != 0)
        example_error(argv[0], "rank %d: %ld values read back are wrong", rank, wrong);
    else if (rank == 0)
        printf("fileio: %d ranks, a collective write late by %g s, %.6f s\n", size, delay, elapsed);
    free(block);
    free(whole);
    MPI_Finalize();
    return wrong == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
