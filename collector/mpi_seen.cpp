#include "collector/mpi_seen.hpp"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>

#include "collector/launch_environment.hpp"
#include "collector/measurement.hpp"
#include "collector/process.hpp"
#include "collector/symbol_table.hpp"

namespace hindsight::collect {

namespace {

bool g_init_seen = false;

// Whether the MPI library the collector reaches was initialized (and maybe
// finalized since); MPI allows asking at any time.
bool mpi_was_initialized() {
    int initialized = 0;
    int finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    return initialized || finalized;
}

// Whether the executable defines MPI's entry points itself: MPI linked into
// it statically, a copy of MPI that the collector's never learns about.
bool executable_contains_mpi() {
    SymbolTable symbols;
    return symbols.executable_defines("PMPI_Init") || symbols.executable_defines("MPI_Init");
}

// The line for a process whose MPI the collector did not see, or "".
std::string unseen_mpi() {
    const std::string program = executable_path();
    if (mpi_was_initialized()) {
        return program +
               " initialized MPI without going through the collector's MPI_Init (a binding or library "
               "that calls MPI past its PMPI interface?); nothing was recorded";
    }
    if (executable_contains_mpi()) {
        return program +
               " contains its own copy of MPI (linked statically?), which the collector cannot intercept; "
               "nothing was recorded: link it with the shared MPI library";
    }
    return {};  // no MPI at all: a shell or helper started under the launcher
}

// Runs when the process ends (after main and the atexit handlers): the
// collector's library is loaded even where MPI never reached it.
__attribute__((destructor)) void report_unseen_mpi() {
    if (g_init_seen || !first_process_on_node()) return;
    try {
        const std::string line = unseen_mpi();
        if (!line.empty()) std::fprintf(stderr, "%s%s\n", kMessagePrefix, line.c_str());
    } catch (const std::exception&) {  // nothing to say then; the program's exit goes on
    }
}

}  // namespace

void note_mpi_init_seen() noexcept { g_init_seen = true; }

const char* finalize_missed() noexcept {
    int finalized = 0;
    PMPI_Finalized(&finalized);
    return finalized ? "MPI_Finalize was called without going through the collector"
                     : "the program ended without calling MPI_Finalize";
}

}  // namespace hindsight::collect
