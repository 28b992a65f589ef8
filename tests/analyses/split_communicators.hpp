// A scenario for the profile per communicator: MPI_COMM_WORLD split into an
// even and an odd half, collectives on each half and on the world, and one
// late message on the odd half. The expected values are derived by hand in
// the tests that use it.
//
//   even = {0, 2} (comm rank 0 = world 0), odd = {3, 1} (comm rank 0 = world 3)
//   rank 0: MPI_Allreduce(even) 10..40, MPI_Barrier(even) 50..60, MPI_Bcast 70..80
//   rank 2: MPI_Allreduce(even) 30..40, MPI_Barrier(even) 50..60, MPI_Bcast 70..80
//   rank 1: MPI_Allreduce(odd) 10..20 and 25..35, MPI_Bcast 70..80, MPI_Recv(odd) 82..90
//   rank 3: MPI_Allreduce(odd) 10..20 and 30..35, MPI_Bcast 70..80, MPI_Send(odd) 85..86
//   allreduce: 8 bytes; bcast: 4 bytes from world rank 0; the message: 100 bytes
#pragma once

#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

inline constexpr const char* kSplitName = "MPI_Comm_split @ main > setup";

inline TraceBuilder split_communicators() {
    TraceBuilder t(4);
    const Comm even = t.communicator({0, 2}, t.world(), kSplitName);
    const Comm odd = t.communicator({3, 1}, t.world(), kSplitName);
    t.rank(0).enter(0, "main").allreduce(10, 40, 8, even).barrier(50, 60, even).bcast(70, 80, 0, 4).leave(100);
    t.rank(2).enter(0, "main").allreduce(30, 40, 8, even).barrier(50, 60, even).bcast(70, 80, 0, 4).leave(100);
    t.rank(1).enter(0, "main").allreduce(10, 20, 8, odd).allreduce(25, 35, 8, odd).bcast(70, 80, 0, 4)
        .recv(82, 90, /*source: odd rank*/ 0, 1, 100, odd).leave(100);
    t.rank(3).enter(0, "main").allreduce(10, 20, 8, odd).allreduce(30, 35, 8, odd).bcast(70, 80, 0, 4)
        .send(85, 86, /*dest: odd rank*/ 1, 1, 100, odd).leave(100);
    return t;
}

}  // namespace hindsight::testing
