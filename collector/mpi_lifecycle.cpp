// The MPI functions that start, pause and end the measurement; written by
// hand because they drive the measurement instead of being recorded by it.
#include <cstdio>

#include "collector/measurement.hpp"
#include "collector/timer.hpp"

using hindsight::collect::Measurement;
using hindsight::collect::MpiFunction;

extern "C" int MPI_Init(int* argc, char*** argv) {
    const std::uint64_t enter = hindsight::collect::timestamp();
    const int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) Measurement::start(MpiFunction::MPI_Init, enter);
    return rc;
}

extern "C" int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    const std::uint64_t enter = hindsight::collect::timestamp();
    const int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) Measurement::start(MpiFunction::MPI_Init_thread, enter);
    return rc;
}

extern "C" int MPI_Finalize(void) {
    const std::uint64_t enter = hindsight::collect::timestamp();
    if (Measurement::live_here()) Measurement::finish(enter);
    return PMPI_Finalize();
}

extern "C" int MPI_Abort(MPI_Comm comm, int errorcode) {
    if (Measurement::live_here()) {
        Measurement::abandon("MPI_Abort was called (error code " + std::to_string(errorcode) + ")");
    }
    return PMPI_Abort(comm, errorcode);
}

// MPI_Pcontrol(0) pauses recording, any other level resumes it.
extern "C" int MPI_Pcontrol(const int level, ...) {
    if (Measurement* m = Measurement::live_here()) m->set_recording(level != 0);
    return MPI_SUCCESS;
}
