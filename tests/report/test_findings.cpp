// The page's findings look for the metrics the analyses write: every wait
// pattern of analyses/patterns.hpp with its delay costs, by the same names.
#include <string>

#include <catch2/catch.hpp>

#include "analyses/metrics.hpp"
#include "analyses/patterns.hpp"
#include "report/findings.hpp"

using namespace hindsight;

namespace {

std::string name_of(const std::optional<analyses::Metric>& m) {
    return m ? std::string(analyses::info(*m).unique_name) : std::string();
}

}  // namespace

TEST_CASE("the findings' wait states are the analyses' wait patterns", "[report]") {
    std::size_t patterns = 0;
    for (const analyses::PatternInfo& pattern : analyses::kWaitPatterns) {
        const auto measured = pattern.wait ? pattern.wait : pattern.completion;
        if (!measured) continue;
        ++patterns;
        const std::string wait = name_of(measured);
        INFO(wait);
        const report::WaitStateNames* found = nullptr;
        for (const report::WaitStateNames& names : report::wait_state_names())
            if (names.wait == wait) found = &names;
        REQUIRE(found != nullptr);
        CHECK(std::string(found->short_term_delay) == (pattern.delay ? name_of(pattern.delay->short_term) : ""));
        CHECK(std::string(found->long_term_delay) == (pattern.delay ? name_of(pattern.delay->long_term) : ""));
        CHECK(found->noise_when_small == pattern.noise_when_small);
    }
    CHECK(report::wait_state_names().size() == patterns);
    // ("imbalance", the computational imbalance, only Scalasca writes.)
    for (const char* name : {"time", "critical_path", "critical_path_imbalance", "delay"})
        CHECK(analyses::metric_by_name(name).has_value());
}
