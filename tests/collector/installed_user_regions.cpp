// A user program built against the installed tree only (check_install.py):
// each rank marks one C region "setup" and three C++ scopes "solve".
#include <hindsight.h>
#include <mpi.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    hindsight_region_begin("setup");
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    hindsight_region_end("setup");
    for (int i = 0; i < 3; ++i) {
        hindsight::Scope scope("solve");
        int sum = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
