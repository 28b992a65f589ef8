#include <catch2/catch.hpp>

#include "common/clock.hpp"

using namespace hindsight;

TEST_CASE("ticks convert to seconds through the clock properties") {
    ClockProperties clock;
    clock.ticks_per_second = 2'000'000'000;
    clock.global_offset = 1000;
    CHECK(clock.seconds(3'000'000'000) == Approx(1.5));
    CHECK(clock.seconds_since_start(1000 + 500'000'000) == Approx(0.25));
    CHECK(clock.ticks(0.25) == 500'000'000);
    CHECK(clock.ticks(-0.25) == -500'000'000);
}
