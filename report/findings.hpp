// What the page's first view looks for in a report: the metrics that
// measure wait states, with the delay-cost metrics that say what caused
// them, and the critical path, delay and imbalance metrics, by the unique
// names Scalasca and Hindsight share (so that any such report gets the
// same findings). All of it follows from the wait-pattern rows
// (common/wait_patterns.hpp), as the terminal summary does.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hindsight::report {

struct WaitStateNames {
    std::string_view wait;              // the metric of the waiting
    std::string_view short_term_delay;  // its delay costs; empty: none
    std::string_view long_term_delay;
    // Left out of the largest wait states while below metrics::kNoiseShare
    // of the time: every run waits a little at start-up and at the end.
    bool noise_when_small;
};

std::span<const WaitStateNames> wait_state_names();

// Attributes of the analyzer's reports the findings read: the wall clock in
// seconds, and the activity graph's findings (analyzer/graph_summary.hpp).
// Both describe one run: a difference of two reports has neither.
inline constexpr const char* kWallClockAttribute = "Hindsight wall clock";
inline constexpr const char* kActivityGraphAttribute = "Hindsight activity graph";
// What ran (analyzer/run_information.hpp): the page shows it and takes its
// title from it.
inline constexpr const char* kRunAttribute = "Hindsight run";
// Set on a difference of two reports (hindsight-report --diff), naming both:
// its findings are what got worse and what got better.
inline constexpr const char* kDifferenceAttribute = "Hindsight difference";

// Every metric the findings look at, by unique name: the time, the wait
// states, the critical path and its imbalance, the delay costs, the
// imbalance indicators.
std::vector<std::string_view> finding_metric_names();

// The findings names as the page's JSON ("findings" of page_data.hpp).
std::string findings_json();

// The share of the time below which a noise pattern is left out of the
// largest wait states, and how many of them the page lists, as the text of
// JavaScript numbers: the page's script is filled with them (page.cpp), so
// that the page applies the summary's limits.
std::string noise_share_text();
std::string wait_states_shown_text();

}  // namespace hindsight::report
