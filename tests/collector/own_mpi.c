/* A program with its own copy of MPI's entry points, as one with MPI linked
 * in statically has: its calls reach neither the shared MPI library nor the
 * collector preloaded before it. Exits with status 3 (a status of its own,
 * which the collector must not change). */
int PMPI_Init(int *argc, char ***argv);
int MPI_Init(int *argc, char ***argv);

int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int MPI_Init(int *argc, char ***argv) { return PMPI_Init(argc, argv); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return 3;
}
