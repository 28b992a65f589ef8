/* An MPI program whose MPI the collector cannot see: it calls the MPI
 * library's own PMPI_Init, PMPI_Send/PMPI_Recv and PMPI_Finalize through
 * the library's handle (dlsym), past every definition the collector gives
 * those names, as a program with MPI linked in statically would. Rank 0
 * sends one integer to rank 1. With the argument "finalize-unseen" only its
 * PMPI_Finalize goes past the collector: MPI_Init and the message go through
 * it. Exits with status 3 when it succeeded (a status of its own, which the
 * collector must not change). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*init_fn)(int *, char ***);
typedef int (*rank_fn)(MPI_Comm, int *);
typedef int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int (*recv_fn)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
typedef int (*finalize_fn)(void);

static void *mpi_library;

/* The loaded MPI library (libmpi*.so*, e.g. MPICH's libmpich.so.12). */
static int find_mpi(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *base = slash ? slash + 1 : info->dlpi_name;
    if (strncmp(base, "libmpi", 6) != 0 || strstr(base, "fort") || strstr(base, "cxx")) return 0;
    mpi_library = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return mpi_library != NULL;
}

/* The MPI library's own function `name` into the function pointer at
 * `function` (copied: ISO C converts no object pointer to a function one). */
static void own(const char *name, void *function, size_t size)
{
    void *f = dlsym(mpi_library, name);
    if (!f || size != sizeof f) {
        fprintf(stderr, "unseen_mpi: the MPI library has no %s\n", name);
        exit(1);
    }
    memcpy(function, &f, size);
}

int main(int argc, char **argv)
{
    dl_iterate_phdr(find_mpi, NULL);
    if (!mpi_library) {
        fprintf(stderr, "unseen_mpi: no MPI library loaded\n");
        return 1;
    }
    const int only_finalize = argc > 1 && strcmp(argv[1], "finalize-unseen") == 0;
    rank_fn comm_rank = MPI_Comm_rank;
    send_fn send = MPI_Send;
    recv_fn recv = MPI_Recv;
    finalize_fn finalize = NULL;
    own("PMPI_Finalize", &finalize, sizeof finalize);
    if (only_finalize) {
        MPI_Init(&argc, &argv);
    } else {
        init_fn init = NULL;
        own("PMPI_Init", &init, sizeof init);
        own("PMPI_Comm_rank", &comm_rank, sizeof comm_rank);
        own("PMPI_Send", &send, sizeof send);
        own("PMPI_Recv", &recv, sizeof recv);
        init(&argc, &argv);
    }
    int rank = 0;
    int value = 42;
    comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    if (rank == 1) {
        value = 0;
        recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (value != 42) return 1;
    }
    finalize();
    return 3;
}
