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
 *   4. MPI_Alltoallv on MPI_COMM_WORLD, every count zero: no sources.
 * Neighborhood collectives (recorded as ALLTOALLV), one int per block:
 *   5. MPI_Neighbor_alltoallv on a distributed graph in which world rank w
 *      has the in-neighbors w + 1 and w + 2 (mod 4), the out-neighbors
 *      w + 3 and w + 2, and a block only from and to the first of each:
 *      it receives from w + 1 only; sent 4 bytes, received 4.
 *   6. MPI_Neighbor_allgather on a non-periodic line of the 4 ranks (a
 *      Cartesian communicator, not reordered): w receives from w - 1 and
 *      w + 1 where they exist (MPI_PROC_NULL at the ends sends nothing);
 *      4 bytes to and from each.
 *   7. MPI_Ineighbor_alltoall on that line, completed by MPI_Wait: as 6. */
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

    MPI_Comm graph;
    const int in[2] = {(w + 1) % 4, (w + 2) % 4};
    const int out[2] = {(w + 3) % 4, (w + 2) % 4};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, MPI_UNWEIGHTED, 2, out, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &graph);
    const int ncounts[2] = {1, 0};
    const int ndispls[2] = {0, 1};
    MPI_Neighbor_alltoallv(send, ncounts, ndispls, MPI_INT, recv, ncounts, ndispls, MPI_INT, graph);

    MPI_Comm line;
    const int dims[1] = {4};
    const int periods[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    MPI_Neighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, line);
    MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, line, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);

    MPI_Comm_free(&line);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&rev);
    MPI_Finalize();
    return 0;
}
