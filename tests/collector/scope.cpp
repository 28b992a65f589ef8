// C++ user regions through hindsight::Scope, filtered by a filter file in
// the test: "compute" is recorded three times per rank, "tiny" never.
#include <mpi.h>

#include "hindsight.h"

namespace {
int tiny(int x) {
    hindsight::Scope scope("tiny");
    return x + 1;
}

int compute(int x) {
    hindsight::Scope scope("compute");
    for (int i = 0; i < 10; ++i) x = tiny(x);
    return x;
}
}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int value = 0;
    for (int i = 0; i < 3; ++i) value = compute(value);
    int sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return sum > 0 ? 0 : 1;
}
