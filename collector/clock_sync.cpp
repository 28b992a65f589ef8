#include "collector/clock_sync.hpp"

#include <unistd.h>

#include <cstring>
#include <limits>
#include <vector>

#include "collector/timer.hpp"

namespace hindsight::collect {

namespace {

constexpr int kPingTag = 0x4853;  // a private communicator: any tag will do

// True when this process reads the same clock as rank 0: the same timer
// source on the same host (CLOCK_MONOTONIC is one clock per host, and so is
// the TSC wherever the timer uses it), so the offset is exactly zero.
bool shares_clock_with_root(MPI_Comm comm) {
    char mine[257] = {};
    mine[0] = static_cast<char>(Timer::source());
    gethostname(mine + 1, sizeof mine - 2);
    char root[sizeof mine] = {};
    std::memcpy(root, mine, sizeof root);
    PMPI_Bcast(root, sizeof root, MPI_CHAR, 0, comm);
    return std::memcmp(mine, root, sizeof mine) == 0;
}

}  // namespace

ClockOffset measure_clock_offset(MPI_Comm comm, int repetitions) {
    int rank = 0;
    int size = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int remote = shares_clock_with_root(comm) ? 0 : 1;
    std::vector<int> remote_ranks(rank == 0 ? static_cast<std::size_t>(size) : 0);
    PMPI_Gather(&remote, 1, MPI_INT, remote_ranks.data(), 1, MPI_INT, 0, comm);
    if (rank == 0) {
        for (int peer = 1; peer < size; ++peer) {
            if (!remote_ranks[static_cast<std::size_t>(peer)]) continue;
            for (int i = 0; i < repetitions; ++i) {
                char ping = 0;
                PMPI_Recv(&ping, 1, MPI_CHAR, peer, kPingTag, comm, MPI_STATUS_IGNORE);
                const std::uint64_t now = timestamp();
                PMPI_Send(&now, 1, MPI_UINT64_T, peer, kPingTag, comm);
            }
        }
        return {timestamp(), 0, 0.0};
    }
    if (!remote) return {timestamp(), 0, 0.0};
    ClockOffset best;
    std::uint64_t best_round_trip = std::numeric_limits<std::uint64_t>::max();
    for (int i = 0; i < repetitions; ++i) {
        const char ping = 0;
        std::uint64_t reference = 0;
        const std::uint64_t sent = timestamp();
        PMPI_Send(&ping, 1, MPI_CHAR, 0, kPingTag, comm);
        PMPI_Recv(&reference, 1, MPI_UINT64_T, 0, kPingTag, comm, MPI_STATUS_IGNORE);
        const std::uint64_t received = timestamp();
        if (received - sent < best_round_trip) {
            best_round_trip = received - sent;
            const std::uint64_t middle = sent + (received - sent) / 2;
            best = {middle, static_cast<std::int64_t>(reference - middle),
                    static_cast<double>(best_round_trip) / 2.0};
        }
    }
    return best;
}

}  // namespace hindsight::collect
