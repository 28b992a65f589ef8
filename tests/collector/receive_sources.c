/* Collectives whose counts decide whom a rank receives from, on 4 ranks.
 *
 * A communicator `rev` of all ranks in reverse order (its rank r is world
 * rank 3 - r). Communicator rank r sends one int to rank s, and receives
 * one from it, when r != s and r + s is even: r receives from r + 2 mod 4
 * only. That is, by world rank w, from world rank (w + 2) mod 4.
 *   1. MPI_Alltoallv on rev with those counts.
 *   2. MPI_Ialltoallv on rev with those counts, which are then set to zero
 *      before MPI_Wait (the sources are those of the start).
 *   3. MPI_Alltoallw on MPI_COMM_WORLD: rank w receives from world rank
 *      w - 1 only (rank 0 from nobody), as MPI_INT; the other receive
 *      counts are zero.
 *   4. MPI_Alltoallv on MPI_COMM_WORLD, every count zero: no sources. */
#include <mpi.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int w, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 4) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, 3 - w, &rev);
    int r;
    MPI_Comm_rank(rev, &r);
    int counts[4], displs[4], send[4] = {1, 2, 3, 4}, recv[4];
    for (int s = 0; s < 4; ++s) {
        counts[s] = r != s && (r + s) % 2 == 0;
        displs[s] = s;
    }
    MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, rev);

    MPI_Request request;
    MPI_Ialltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, rev, &request);
    for (int s = 0; s < 4; ++s) counts[s] = 0;
    MPI_Wait(&request, MPI_STATUS_IGNORE);

    int scounts[4], rcounts[4], bdispls[4];
    MPI_Datatype types[4];
    for (int s = 0; s < 4; ++s) {
        scounts[s] = s == w + 1;
        rcounts[s] = s == w - 1;
        bdispls[s] = s * (int)sizeof(int);
        types[s] = MPI_INT;
    }
    MPI_Alltoallw(send, scounts, bdispls, types, recv, rcounts, bdispls, types, MPI_COMM_WORLD);

    MPI_Alltoallv(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);

    MPI_Comm_free(&rev);
    MPI_Finalize();
    return 0;
}
