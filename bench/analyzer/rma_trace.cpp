// Writes a trace of one-sided epochs, or a point-to-point one of about as
// many events, for comparing the analyzer's time per event on both.
//
//   rma_trace DIR RANKS ITERATIONS [--point-to-point]
//
// One-sided, per iteration and pair of ranks (the even rank the target, the
// odd one the origin): a general active target epoch whose put waits for a
// late post (Late Post) and whose target waits for the complete (Early
// Wait), then a lock epoch of the origin on the target with a put. Events
// per iteration: the target 8 (work, MPI_Win_post and MPI_Win_wait with
// their group synchronizations), the origin 22 (MPI_Win_start, work, put,
// MPI_Win_complete with the put's completion, MPI_Win_lock, put,
// MPI_Win_unlock with the put's completion): 30 per pair.
// Point-to-point: per iteration and rank work and two message exchanges
// with the partner (rank ^ 1), 14 events: 28 per pair.
// Prints the number of events written (main's enter and leave included).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/analyzer/partner_exchange.hpp"
#include "tests/support/trace_builder.hpp"

using hindsight::Ticks;
using hindsight::bench::exchange_with_partner;
using hindsight::testing::RankBuilder;
using hindsight::testing::RmaWindow;
using hindsight::testing::TraceBuilder;

namespace {

constexpr Ticks kIteration = 700;

void one_sided(RankBuilder& rank, int r, RmaWindow win, Ticks t) {
    const int partner = r ^ 1;
    if (r % 2 == 0) {
        rank.region(t, t + 450, "work").win_post(t + 450, t + 460, win, {partner});
        rank.win_wait(t + 470, t + 520, win, {partner});
    } else {
        rank.win_start(t + 10, t + 20, win, {partner}).region(t + 20, t + 300, "work");
        rank.put(t + 405, t + 470, win, partner, 1024).win_complete(t + 480, t + 490, win, {partner});
        rank.win_lock(t + 520, t + 525, win, partner, true).put(t + 530, t + 540, win, partner, 1024);
        rank.win_unlock(t + 550, t + 560, win, partner);
    }
}

// Work, then two exchanges of a message with the partner.
void point_to_point(RankBuilder& rank, int r, Ticks t) {
    rank.region(t, t + 300, "work");
    exchange_with_partner(rank, r, t + 300);
    exchange_with_partner(rank, r, t + 450);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: rma_trace DIR RANKS ITERATIONS [--point-to-point]\n");
        return 2;
    }
    const int ranks = std::atoi(argv[2]);
    const long iterations = std::atol(argv[3]);
    const bool p2p = argc > 4 && std::string(argv[4]) == "--point-to-point";
    if (ranks < 2 || ranks % 2 || iterations < 1) {
        std::fprintf(stderr, "rma_trace: an even number of ranks, at least 1 iteration\n");
        return 2;
    }
    TraceBuilder t(ranks);
    const RmaWindow win = t.window(t.world());
    for (int r = 0; r < ranks; ++r) {
        auto& rank = t.rank(r).enter(0, "main");
        Ticks now = 10;
        for (long i = 0; i < iterations; ++i, now += kIteration) {
            if (p2p)
                point_to_point(rank, r, now);
            else
                one_sided(rank, r, win, now);
        }
        rank.leave(now);
    }
    t.write(argv[1]);
    const auto pairs = static_cast<unsigned long long>(ranks / 2);
    const unsigned long long per_pair = p2p ? 28 : 30;
    std::printf("%llu\n", 2ULL * static_cast<unsigned long long>(ranks) +
                               per_pair * pairs * static_cast<unsigned long long>(iterations));
    return 0;
}
