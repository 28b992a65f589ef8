// Each rank keeps its few longest waits per pattern.
#include <catch2/catch.hpp>

#include "analyses/longest_waits.hpp"

using namespace hindsight;
using namespace hindsight::analyses;

TEST_CASE("longest waits: the three longest of each pattern, longest first", "[longest_waits]") {
    LongestWaits waits;
    // Late Sender waits of 5, 9, 1, 7, 9 ticks starting at 0, 10, 20, 30, 40;
    // one barrier wait of 2 ticks.
    const Ticks lengths[] = {5, 9, 1, 7, 9};
    for (Ticks i = 0; i < 5; ++i) waits.offer({WaitPattern::LateSender, 3, 10 * i, lengths[static_cast<std::size_t>(i)]});
    waits.offer({WaitPattern::Barrier, 4, 100, 2});
    waits.offer({WaitPattern::Barrier, 4, 110, 0});  // no wait

    const auto kept = waits.kept();
    REQUIRE(kept.size() == 4);
    // 9 (at 10) before the equal 9 (at 40): the earlier stays first; then 7.
    CHECK(kept[0].start == 10);
    CHECK(kept[1].start == 40);
    CHECK(kept[2].waiting == 7);
    for (int i = 0; i < 3; ++i) CHECK(kept[static_cast<std::size_t>(i)].pattern == WaitPattern::LateSender);
    CHECK(kept[3].pattern == WaitPattern::Barrier);
    CHECK(kept[3].waiting == 2);
}
