// The delay analysis's rounds follow chains of propagating wait states, not
// messages: a ping-pong whose waits propagate nothing takes the same rounds
// however long it runs, and a pipeline takes one more round per rank the
// chain passes. Also the pipeline's costs, derived by hand.
#include <catch2/catch.hpp>

#include "tests/analyses/backward/backward_helpers.hpp"

using namespace hindsight;
using namespace hindsight::analyses;
using namespace hindsight::testing;

namespace {

// Two ranks, `trips` round trips, every message a Late Sender. Ticks of 1 ns.
// Iteration i begins at b = 10 + 100 i:
//   rank 0: work b..b+30 | MPI_Send to 1 b+30..b+35 | MPI_Recv from 1 b+35..b+90
//   rank 1: MPI_Recv from 0 b..b+35 | work b+35..b+80 | MPI_Send to 0 b+80..b+85
// Each interval of a wait with its peer begins at the previous message, so
// no wait lies inside another's interval: nothing propagates.
TraceBuilder ping_pong(int trips) {
    TraceBuilder t(2);
    auto& r0 = t.rank(0).enter(0, "main").init(0, 10);
    auto& r1 = t.rank(1).enter(0, "main").init(0, 10);
    for (int i = 0; i < trips; ++i) {
        const Ticks b = 10 + 100 * static_cast<Ticks>(i);
        r0.region(b, b + 30, "work").send(b + 30, b + 35, 1, 1, 8).recv(b + 35, b + 90, 1, 2, 8);
        r1.recv(b, b + 35, 0, 1, 8).region(b + 35, b + 80, "work").send(b + 80, b + 85, 0, 2, 8);
    }
    const Ticks end = 10 + 100 * static_cast<Ticks>(trips);
    r0.finalize(end, end + 10).leave(end + 10);
    r1.finalize(end, end + 10).leave(end + 10);
    return t;
}

// A pipeline of `ranks`: rank r > 0 receives from r - 1 (entering at 10),
// works 20 and sends to r + 1 (the last rank does not):
//   rank 0: work 10..30 | MPI_Send 30..35
//   rank r: MPI_Recv 10..10+25r | work 10+25r..30+25r | MPI_Send 30+25r..35+25r
// so rank r waits 25r - 5 for rank r - 1, which waited itself inside its
// interval with rank r: each wait propagates to the rank before.
TraceBuilder pipeline(int ranks) {
    TraceBuilder t(ranks);
    const Ticks end = 35 + 25 * static_cast<Ticks>(ranks);
    for (int r = 0; r < ranks; ++r) {
        const Ticks start = 10 + 25 * static_cast<Ticks>(r);
        auto& rank = t.rank(r).enter(0, "main").init(0, 10);
        if (r > 0) rank.recv(10, start, r - 1, 1, 8);
        rank.region(start, start + 20, "work");
        if (r + 1 < ranks) rank.send(start + 20, start + 25, r + 1, 1, 8);
        rank.finalize(end, end + 10).leave(end + 10);
    }
    return t;
}

std::uint64_t delay_rounds(const TraceBuilder& trace) {
    const AnalysisResults r(trace, kAllAnalyses);
    return r.findings(0).delay_cost_rounds;
}

}  // namespace

TEST_CASE("delay rounds: a ping-pong takes as many rounds for 40 messages as for 4", "[delay][rounds]") {
    const std::uint64_t short_run = delay_rounds(ping_pong(2));
    CHECK(short_run == delay_rounds(ping_pong(20)));
    // Round 1 brings the claims, round 2 the costs, round 3 the answers,
    // after which nothing is left.
    CHECK(short_run == 3);
}

TEST_CASE("delay rounds: a pipeline takes one more round per rank of its chain", "[delay][rounds]") {
    CHECK(delay_rounds(pipeline(6)) == delay_rounds(pipeline(4)) + 2);
}

TEST_CASE("delay costs: a pipeline's waits propagate to the first rank", "[delay]") {
    // Rank 2 waits 45 for rank 1. Their interval runs from MPI_Init; rank 1
    // spent in it 5 in MPI_Recv beyond its own 20 of waiting and 20 in work,
    // rank 2 nothing: the excess is 25, rank 1's waiting 20, so each tick
    // of the excess or of the waiting gets 45 / 45 = 1. Rank 1's wait of
    // 20 passes its own 20 plus the 20 of long-term cost on to rank 0,
    // whose excess over rank 1 is its work (20).
    const AnalysisResults r(pipeline(3), kAllAnalyses);
    CHECK(r.own(Metric::DelayLateSender, 1, "main/work") == Approx(ns(20)));
    CHECK(r.own(Metric::DelayLateSender, 1, "main/MPI_Recv") == Approx(ns(5)));
    CHECK(r.own(Metric::DelayLateSender, 0, "main/work") == Approx(ns(20)));
    CHECK(r.own(Metric::DelayLateSenderLongterm, 0, "main/work") == Approx(ns(20)));
    CHECK(r.own(Metric::DelayLateSenderLongterm, 1, "main/work") == Approx(0.0).margin(1e-18));
    // Rank 2's wait: 20 explained by rank 1's waiting (indirect), 25 direct.
    CHECK(r.own(Metric::MpiWaitIndirectLatesender, 2, "main/MPI_Recv") == Approx(ns(20)));
    CHECK(r.own(Metric::MpiWaitDirectLatesender, 2, "main/MPI_Recv") == Approx(ns(25)));
    // Rank 1's wait propagated whole; rank 2's is the end of the chain.
    CHECK(r.own(Metric::MpiWaitPropagatingLs, 1, "main/MPI_Recv") == Approx(ns(20)));
    CHECK(r.own(Metric::MpiWaitTerminalLs, 2, "main/MPI_Recv") == Approx(ns(45)));
}
