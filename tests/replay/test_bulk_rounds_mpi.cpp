// The bulk exchanges analyses use instead of message-by-message hand-overs
// (replay/exchange.hpp over MPI) and the wavefront rounds built on them,
// run with several ranks: blocks reach the ranks they were meant for, a
// relay around the ranks costs one round per link however many records a
// round carries, and a rank waiting for a record nobody sends ends the
// rounds with an error on every rank instead of a hang.
#include <catch2/catch.hpp>

#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>

#include "common/error.hpp"
#include "replay/mpi_exchange.hpp"
#include "replay/wavefront_rounds.hpp"

using namespace hindsight;
using namespace hindsight::replay;

namespace {

ProgressWatch test_watch() { return ProgressWatch(std::chrono::seconds(60), spin_budget(MPI_COMM_WORLD)); }

}  // namespace

TEST_CASE("bulk exchange: every rank's block reaches its rank", "[exchange]") {
    ProgressWatch watch = test_watch();
    MpiExchange exchange(MPI_COMM_WORLD, watch);
    const int n = exchange.size(), me = exchange.rank();
    ByteBlocks outgoing(static_cast<std::size_t>(n));
    // Rank r sends r + 1 bytes, each the receiver's number, to every other rank.
    for (int to = 0; to < n; ++to)
        if (to != me) outgoing[static_cast<std::size_t>(to)].assign(static_cast<std::size_t>(me) + 1, std::byte(to));
    const ByteBlocks incoming = exchange.all_to_all(outgoing);
    REQUIRE(incoming.size() == static_cast<std::size_t>(n));
    for (int from = 0; from < n; ++from) {
        const auto& block = incoming[static_cast<std::size_t>(from)];
        CHECK(block.size() == (from == me ? 0u : static_cast<std::size_t>(from) + 1));
        for (const std::byte b : block) CHECK(b == std::byte(me));
    }
    std::array<double, 2> values{1.0, static_cast<double>(me)};
    exchange.sum(values);
    CHECK(values[0] == n);
    CHECK(values[1] == n * (n - 1) / 2.0);
    CHECK(exchange.any(me == n - 1));
    CHECK_FALSE(exchange.any(false));
    // Ties go to the lowest rank.
    const RankedValue top = exchange.max_loc(me == 0 ? 5.0 : (me % 2 ? 7.0 : 3.0));
    CHECK(top.value == (n > 1 ? 7.0 : 5.0));
    CHECK(top.rank == (n > 1 ? 1 : 0));
    CHECK(exchange.rounds() == 5);
}

TEST_CASE("wavefront rounds: a relay costs one round per link, whatever each round carries", "[exchange]") {
    ProgressWatch watch = test_watch();
    MpiExchange exchange(MPI_COMM_WORLD, watch);
    WavefrontRounds rounds(exchange, "relay");
    const int n = exchange.size(), me = exchange.rank();
    const int links = 3 * n;
    constexpr int kBulk = 1000;  // records beside the relay, every round, to every rank
    // Link k (1..links) goes from rank (k - 1) % n to rank k % n.
    int expected = 0;
    for (int k = 1; k <= links; ++k) expected += k % n == me ? 1 : 0;
    int received = 0, bulk = 0, wrong = 0;
    const auto send_link = [&](int k) {
        PayloadWriter& out = rounds.to(k % n);
        out.put<std::int32_t>(k);
    };
    if (me == 0) send_link(1);
    const auto relay_round = [&](int from, PayloadReader& in) {
        while (!in.empty()) {
            const auto k = in.get<std::int32_t>();
            if (k < 0) {
                ++bulk;
                continue;
            }
            if ((k - 1) % n != from || k % n != me) ++wrong;
            ++received;
            if (k < links) send_link(k + 1);
        }
    };
    std::uint64_t round = 0;
    rounds.run(relay_round, [&] {
        if (++round < static_cast<std::uint64_t>(links))
            for (int to = 0; to < n; ++to)
                for (int i = 0; i < kBulk; ++i) rounds.to(to).put<std::int32_t>(-1);
        return received < expected;
    });
    CHECK(wrong == 0);
    CHECK(received == expected);
    CHECK(bulk == kBulk * n * (links - 1));
    CHECK(rounds.rounds() == static_cast<std::uint64_t>(links));
}

TEST_CASE("wavefront rounds: waiting for what nobody sends is an error on every rank", "[exchange]") {
    ProgressWatch watch = test_watch();
    MpiExchange exchange(MPI_COMM_WORLD, watch);
    WavefrontRounds rounds(exchange, "stalled.otf2");
    const bool waits = exchange.rank() == exchange.size() - 1;
    CHECK_THROWS_WITH(rounds.run([](int, PayloadReader&) {}, [&] { return waits; }),
                      Catch::Contains("stalled.otf2") && Catch::Contains("1 rank(s) wait"));
}

TEST_CASE("wavefront rounds: a stall that some rank can end goes on", "[exchange]") {
    ProgressWatch watch = test_watch();
    MpiExchange exchange(MPI_COMM_WORLD, watch);
    WavefrontRounds rounds(exchange, "stalled.otf2");
    const int n = exchange.size(), me = exchange.rank();
    // The last rank waits for a record that rank 0 holds back until the
    // rounds stall; then rank 0 writes it, once.
    bool waits = me == n - 1, held = me == 0;
    int unstick_calls = 0;
    rounds.run([&](int from, PayloadReader& in) {
        CHECK(from == 0);
        CHECK(in.get<std::int32_t>() == 7);
        waits = false;
    },
               [&] { return waits; },
               [&] {
                   ++unstick_calls;
                   if (!held) return false;
                   held = false;
                   rounds.to(n - 1).put<std::int32_t>(7);
                   return true;
               });
    CHECK_FALSE(waits);
    CHECK(unstick_calls == 1);
    CHECK(rounds.stalls() == 1);
}
