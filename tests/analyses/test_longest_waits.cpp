// Each rank keeps its few longest waits per pattern.
#include <catch2/catch.hpp>

#include "analyses/longest_waits.hpp"

using namespace hindsight;
using namespace hindsight::analyses;

TEST_CASE("longest waits: the longest of each pattern, longest first", "[longest_waits]") {
    constexpr std::size_t kept_per_pattern = LongestWaits::kPerPattern;
    constexpr Ticks n = static_cast<Ticks>(kept_per_pattern) + 2;
    LongestWaits waits;
    // Late Sender waits of every length 1..n (in a shuffled order: 5 has no
    // common divisor with n), starting at 0, 10, 20, ...; then one more of
    // length n, later; one barrier wait of 2 ticks and one of none.
    static_assert(n % 5 != 0);
    for (Ticks i = 0; i < n; ++i) waits.offer({WaitPattern::LateSender, 3, 10 * i, (i * 5) % n + 1});
    waits.offer({WaitPattern::LateSender, 3, 10 * n, n});
    waits.offer({WaitPattern::Barrier, 4, 1000, 2});
    waits.offer({WaitPattern::Barrier, 4, 1010, 0});  // no wait

    const auto kept = waits.kept();
    REQUIRE(kept.size() == kept_per_pattern + 1);
    // The two of length n first, the earlier (i with i*5 % n == n-1) before
    // the later; then n-1, n-2, ... down to the last kept.
    Ticks first_longest = 0;
    while ((first_longest * 5) % n + 1 != n) ++first_longest;
    CHECK(kept[0].start == 10 * first_longest);
    CHECK(kept[1].start == 10 * n);
    for (std::size_t i = 1; i < kept_per_pattern; ++i) {
        CHECK(kept[i].pattern == WaitPattern::LateSender);
        CHECK(kept[i].waiting == n - static_cast<Ticks>(i) + 1);
    }
    CHECK(kept[kept_per_pattern].pattern == WaitPattern::Barrier);
    CHECK(kept[kept_per_pattern].waiting == 2);
}
