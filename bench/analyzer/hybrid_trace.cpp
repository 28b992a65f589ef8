// Writes a hybrid (MPI + OpenMP) trace, or an MPI-only one of the same
// number of events, for comparing the analyzer's time per event on both.
//
//   hybrid_trace DIR RANKS THREADS ITERATIONS [--mpi-only]
//
// Hybrid, per iteration and rank: the master forks a team of THREADS
// threads; each thread works (thread t 20 t ticks longer than the master,
// so that the master waits at the closing implicit barrier) and enters the
// barrier; the master joins, then exchanges a message with its partner
// rank (rank ^ 1: the even rank sends first, the odd one receives first).
// Events per iteration and rank: the master 10 (fork, team begin, region
// enter, work, barrier, region leave, team end, join) + 6 (send and
// receive), each worker 8: 16 + 8 (THREADS - 1) = 8 (THREADS + 1).
// MPI-only: per iteration the work region and the exchange, 8 events, for
// (THREADS + 1) times as many iterations: the same events in all.
// Prints the number of events written (main's enter and leave included).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/analyzer/partner_exchange.hpp"
#include "tests/support/trace_builder.hpp"

using hindsight::Ticks;
using hindsight::bench::exchange_with_partner;
using hindsight::testing::TraceBuilder;

namespace {

const std::string kRegion = "!$omp parallel @bench.c:10", kBarrier = "!$omp implicit barrier @bench.c:20";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: hybrid_trace DIR RANKS THREADS ITERATIONS [--mpi-only]\n");
        return 2;
    }
    const int ranks = std::atoi(argv[2]), threads = std::atoi(argv[3]);
    const long iterations = std::atol(argv[4]);
    const bool mpi_only = argc > 5 && std::string(argv[5]) == "--mpi-only";
    if (ranks < 2 || ranks % 2 || threads < 2 || threads > 20 || iterations < 1) {
        std::fprintf(stderr, "hybrid_trace: an even number of ranks, 2 to 20 threads, at least 1 iteration\n");
        return 2;
    }
    TraceBuilder t(ranks);
    if (!mpi_only) t.set_threads(threads);
    unsigned long long events = 0;
    for (int r = 0; r < ranks; ++r) {
        auto& master = t.rank(r);
        master.enter(0, "main");
        Ticks now = 10;
        if (mpi_only) {
            for (long i = 0; i < iterations * (threads + 1); ++i, now += 600) {
                master.region(now, now + 400 + 5 * (i % threads), "work");
                exchange_with_partner(master, r, now + 500);
            }
            events += 2 + 8ULL * static_cast<unsigned long long>(iterations) * (threads + 1);
        } else {
            for (long i = 0; i < iterations; ++i, now += 600) {
                const Ticks join = now + 500;
                master.fork(now, threads).team_begin(now).enter(now, kRegion).region(now, now + 400, "work");
                master.region(now + 400, join, kBarrier).leave(join).team_end(join).join(join);
                for (int w = 1; w < threads; ++w) {
                    auto& worker = t.thread(r, w);
                    const Ticks done = now + 400 + 5 * w;
                    worker.team_begin(now).enter(now, kRegion).region(now, done, "work");
                    worker.region(done, join, kBarrier).leave(join).team_end(join);
                }
                exchange_with_partner(master, r, join);
            }
            events += 2 + 8ULL * static_cast<unsigned long long>(iterations) * (threads + 1);
        }
        master.leave(now + 100);
    }
    t.write(argv[1]);
    std::printf("%llu\n", events);
    return 0;
}
