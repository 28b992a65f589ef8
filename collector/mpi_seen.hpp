// Never a silent empty run: notices, when the process ends, that it used
// MPI without the collector seeing it (e.g. MPI linked into the program
// statically, or a binding that reaches MPI past its PMPI interface) and says
// so in one line, since such a run leaves no trace or only part of one.
#pragma once

namespace hindsight::collect {

// The collector's MPI_Init or MPI_Init_thread ran: it saw MPI start.
__attribute__((visibility("hidden"))) void note_mpi_init_seen() noexcept;

// Why a measurement still running at exit did not see MPI_Finalize: the
// program ended without it (empty), or called it past the collector.
__attribute__((visibility("hidden"))) const char* finalize_missed() noexcept;

}  // namespace hindsight::collect
