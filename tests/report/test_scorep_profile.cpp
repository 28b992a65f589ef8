// Reports shaped like Score-P's profile.cubex (scorep_shaped_report.hpp):
// the reader's values and the text mode's tables, against the values the
// scenario was built from.
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "common/cube/query.hpp"
#include "common/cube/reader.hpp"
#include "common/error.hpp"
#include "report/table.hpp"
#include "report/text_mode.hpp"
#include "tests/report/scorep_shaped_report.hpp"

using namespace hindsight;
using cube::CallPath;

namespace {

cube::Report scorep_report() { return cube::parse_cubex(testing::scorep_shaped_report(), "profile.cubex"); }

std::string csv(const report::Table& t) {
    std::ostringstream out;
    report::print_table(out, t, report::Format::Csv);
    return out.str();
}

const CallPath kMain{"main"}, kFoo{"main", "foo"}, kBaz{"main", "foo", "baz"}, kBar{"main", "bar"};

}  // namespace

TEST_CASE("Score-P profile: every value type reads at its own width", "[report][scorep]") {
    const cube::Report r = scorep_report();
    CHECK(cube::total(r, "visits") == 41);
    CHECK(cube::value_at(r, "visits", kFoo, 1) == 20);
    // INT8: negative values are sign-extended from one byte.
    CHECK(cube::value_at(r, "delta", kMain, 0) == -3);
    CHECK(cube::value_at(r, "delta", kFoo, 1) == -1);
    CHECK(cube::total(r, "delta") == 8);
    // UINT16: two bytes, 65535 is not -1.
    CHECK(cube::value_at(r, "counter", kMain, 1) == 65535);
    CHECK(cube::total(r, "counter") == 65835);
    // TAU_ATOMIC: 36 bytes per value, shown as the sum of its samples.
    CHECK(cube::value_at(r, "msg_size", kFoo, 0) == 40);
    CHECK(cube::value_at(r, "msg_size", kFoo, 1) == 7);
}

TEST_CASE("Score-P profile: compressed data inflates to its rows", "[report][scorep]") {
    const cube::Report r = scorep_report();
    CHECK(cube::value_at(r, "flops", kFoo, 0) == 100);
    CHECK(cube::value_at(r, "flops", kBar, 1) == 400);
    CHECK(cube::total(r, "flops") == 1000);
}

TEST_CASE("Score-P profile: an INCLUSIVE metric comes back exclusive", "[report][scorep]") {
    const cube::Report r = scorep_report();
    // Stored call-tree inclusive, rows in CubeLib's inclusive order.
    CHECK(cube::value_at(r, "time", kMain, 0) == 1);
    CHECK(cube::value_at(r, "time", kMain, 1) == 2);
    CHECK(cube::value_at(r, "time", kFoo, 0) == 4);
    CHECK(cube::value_at(r, "time", kBaz, 0) == 0.5);
    CHECK(cube::value_at(r, "time", kBar, 0) == 2.5);
    CHECK(cube::value_at(r, "time", kBar, 1) == 1);
    CHECK(cube::total(r, "time") == 14);
    CHECK(cube::subtree_sum(r, "time", kFoo) == 7.5);
}

TEST_CASE("Score-P profile: minimum and maximum aggregate by min and max", "[report][scorep]") {
    const cube::Report r = scorep_report();
    CHECK(cube::total(r, "min_time") == 0.25);
    CHECK(cube::sum_over_ranks(r, "min_time", kMain) == 6);
    CHECK(cube::subtree_sum(r, "min_time", kFoo) == 0.25);
    // baz on rank 1 has no value (0); it does not pull the minimum down.
    CHECK(cube::sum_over_ranks(r, "min_time", kBaz) == 0.5);
    CHECK(cube::subtree_sum(r, "min_time", kFoo, 1) == 0.5);
    CHECK(cube::total(r, "max_time") == 8);
    CHECK(cube::sum_over_ranks(r, "max_time", kFoo) == 3);

    CHECK(csv(report::call_tree_table(r, r.find_metric("min_time"), 0)) ==
          "call path,inclusive,exclusive\n"
          "main,0.25,6\n"
          "main/foo,0.25,0.25\n"
          "main/foo/baz,0.5,0.5\n"
          "main/bar,1,1\n");
    CHECK(csv(report::rank_table(r, r.find_metric("max_time"), r.find_cnode(kFoo), 0)) ==
          "rank,exclusive,inclusive\n0,2,2\n1,3,3\n");
}

TEST_CASE("Score-P profile: a derived metric is listed as not computed", "[report][scorep]") {
    const cube::Report r = scorep_report();
    const cube::MetricIndex avg = r.find_metric("avg_time");
    REQUIRE(avg != cube::kNone);
    CHECK_FALSE(r.computed(avg));
    CHECK(r.expression(avg) == testing::kDerivedExpression);
    CHECK(r.computed(r.find_metric("time")));
    const std::string overview = csv(report::metric_overview(r, 1));
    CHECK_THAT(overview, Catch::Contains("avg_time,(all),not computed,sec\n"));
    CHECK_THAT(overview, Catch::Contains("min_time,(all),0.25,sec\nmin_time,main,6,sec\n"));
    CHECK_THAT(overview, Catch::Contains("max_time,(all),8,sec\nmax_time,main,8,sec\n"));
}

TEST_CASE("Score-P profile: a wrong checksum needs an otherwise sane header", "[report][scorep]") {
    std::string bytes = testing::scorep_shaped_report();
    // The third header (0.index) carries CubeLib 4.8's checksum; without
    // its ustar magic it is no longer taken.
    const std::size_t at = bytes.find("0.index");
    REQUIRE(at != std::string::npos);
    bytes[at + 257] = 'X';
    CHECK_THROWS_WITH(cube::parse_cubex(bytes, "profile.cubex"), Catch::Contains("bad header checksum"));
}
