// The MPI functions that start, pause and end the measurement; written by
// hand because they drive the measurement instead of being recorded by it.
// Like the generated wrappers, each is defined under its PMPI_* name too
// (MPICH's `use mpi_f08` binding calls PMPI_Init & co. directly) and reaches
// MPI through the pointers of next_mpi.hpp.
#include <cstdio>

#include "collector/measurement.hpp"
#include "collector/mpi_seen.hpp"
#include "collector/timer.hpp"

using hindsight::collect::Measurement;
using hindsight::collect::MpiFunction;
namespace next = hindsight::collect::next;

extern "C" int MPI_Init(int* argc, char*** argv) {
    const std::uint64_t enter = hindsight::collect::timestamp();
    const int rc = next::PMPI_Init(argc, argv);
    hindsight::collect::note_mpi_init_seen();
    const Measurement::InsideMpi own_calls;
    if (rc == MPI_SUCCESS) Measurement::start(MpiFunction::MPI_Init, enter);
    return rc;
}
extern "C" int PMPI_Init(int* argc, char*** argv) __attribute__((alias("MPI_Init")));

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    const std::uint64_t enter = hindsight::collect::timestamp();
    const int rc = next::PMPI_Init_thread(argc, argv, required, provided);
    hindsight::collect::note_mpi_init_seen();
    const Measurement::InsideMpi own_calls;
    if (rc == MPI_SUCCESS) Measurement::start(MpiFunction::MPI_Init_thread, enter);
    return rc;
}
extern "C" int PMPI_Init_thread(int* argc, char*** argv, int required, int* provided)
    __attribute__((alias("MPI_Init_thread")));

extern "C" int MPI_Finalize(void) {
    const std::uint64_t enter = hindsight::collect::timestamp();
    if (Measurement::live_here()) {
        const Measurement::InsideMpi own_calls;
        Measurement::finish(enter);
    }
    return next::PMPI_Finalize();
}
extern "C" int PMPI_Finalize(void) __attribute__((alias("MPI_Finalize")));

extern "C" int MPI_Abort(MPI_Comm comm, int errorcode) {
    if (Measurement::live_here()) {
        const Measurement::InsideMpi own_calls;
        Measurement::abandon("MPI_Abort was called (error code " + std::to_string(errorcode) + ")");
    }
    return next::PMPI_Abort(comm, errorcode);
}
extern "C" int PMPI_Abort(MPI_Comm comm, int errorcode) __attribute__((alias("MPI_Abort")));

// MPI_Pcontrol(0) pauses recording, any other level resumes it.
extern "C" int MPI_Pcontrol(const int level, ...) {
    if (Measurement* m = Measurement::live_here()) m->set_recording(level != 0);
    return MPI_SUCCESS;
}
extern "C" int PMPI_Pcontrol(const int level, ...) __attribute__((alias("MPI_Pcontrol")));
