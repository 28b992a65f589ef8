// Times in the unit that suits them, with three significant digits.
#include <catch2/catch.hpp>

#include "common/time_format.hpp"

using hindsight::format_percent;
using hindsight::format_seconds;

TEST_CASE("time format: each value in the unit in which it reads at least 1", "[summary]") {
    CHECK(format_seconds(0.0) == "0 s");
    CHECK(format_seconds(1e-6) == "1.00 µs");
    CHECK(format_seconds(12e-9) == "12.0 ns");
    CHECK(format_seconds(0.34) == "340 ms");
    CHECK(format_seconds(2.25) == "2.25 s");
    CHECK(format_seconds(42.5) == "42.5 s");
    CHECK(format_seconds(1234.4) == "1234 s");
    CHECK(format_seconds(0.06) == "60.0 ms");
}

TEST_CASE("time format: a value that rounds up to the next unit is shown in it", "[summary]") {
    // 0.9996 ms has three significant digits 1.00 ms, not 1000 µs.
    CHECK(format_seconds(0.9996e-3) == "1.00 ms");
    CHECK(format_seconds(0.9994e-3) == "999 µs");
}

TEST_CASE("time format: percentages with one decimal", "[summary]") {
    CHECK(format_percent(0.5) == "50.0 %");
    CHECK(format_percent(5.0 / 27.0) == "18.5 %");
    // A share that rounds to zero has no sign; one that does not keeps it.
    CHECK(format_percent(-0.0001) == "0.0 %");
    CHECK(format_percent(-0.002) == "-0.2 %");
}
