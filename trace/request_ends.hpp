// The ends of non-blocking requests (MPI_ISEND ... MPI_ISEND_COMPLETE,
// MPI_IRECV_REQUEST ... MPI_IRECV) that did not meet on one location. MPI
// lets any thread complete a request: with MPI_THREAD_MULTIPLE a request
// that one thread started may be completed by another thread of the same
// rank, which writes the completion on its own location (a communication
// thread that waits for the requests of the others, a task that waits for
// what another task posted). The writers number requests per process
// (Score-P, Hindsight's collector), so once every location of a rank is
// read its loose ends settle together: a completion that no location of
// the rank started is damage (a lost start or a damaged id), worth a
// warning; one that another location started is no error, and a receive
// completed on a worker learns when another thread posted it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hpp"
#include "common/definitions.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::trace {

// A completion of a request its location did not start: when, and the
// innermost region open then (kNoId: none).
struct LooseCompletion {
    std::uint64_t request = 0;
    Ticks time = 0;
    RegionId region = kNoId;
    // A worker's receive: its index in the thread's transfers, whose
    // posting time settling fills in where another location posted it.
    std::uint32_t transfer = kNoTransfer;
    static constexpr std::uint32_t kNoTransfer = 0xffffffffu;
};

// One location's loose ends.
struct RequestEnds {
    std::vector<LooseCompletion> send_completions;     // MPI_ISEND_COMPLETE of requests not started here
    std::vector<LooseCompletion> receive_completions;  // MPI_IRECV of requests not posted here
    std::vector<std::uint64_t> open_sends;             // started here, not completed here
    std::vector<std::pair<std::uint64_t, Ticks>> open_receives;  // posted here (when), not completed here
    bool receives_posted = false;  // the writer records MPI_IRECV_REQUEST here
};

// Settles the loose ends of the locations of `trace`'s rank, in the order
// of trace.threads (the master first): a worker's receive that another
// location posted learns when (ThreadTransfer::posted); returns the damage
// notes of the completions that no location started.
std::vector<std::string> settle_request_ends(LocalTrace& trace, std::span<const RequestEnds> locations);

}  // namespace hindsight::trace
