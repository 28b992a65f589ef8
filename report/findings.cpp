#include "report/findings.hpp"

#include <array>
#include <charconv>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <system_error>

#include "common/wait_patterns.hpp"
#include "common/text_fields.hpp"

namespace hindsight::report {

namespace {

constexpr std::size_t kWaitStateCount = [] {
    std::size_t n = 0;
    for (const metrics::PatternInfo& pattern : metrics::kWaitPatterns) n += pattern.own_metric() ? 1 : 0;
    return n;
}();

// Every pattern with a metric of its own, in the order of the pattern rows,
// by the identifiers of its metrics.
constexpr std::array<WaitStateNames, kWaitStateCount> kWaitStates = [] {
    std::array<WaitStateNames, kWaitStateCount> names{};
    std::size_t next = 0;
    for (const metrics::PatternInfo& pattern : metrics::kWaitPatterns) {
        const auto own = pattern.own_metric();
        if (!own) continue;
        WaitStateNames& row = names[next++];
        row.wait = metrics::info(*own).unique_name;
        if (pattern.delay) {
            row.short_term_delay = metrics::info(pattern.delay->short_term).unique_name;
            row.long_term_delay = metrics::info(pattern.delay->long_term).unique_name;
        }
        row.noise_when_small = pattern.noise_when_small;
    }
    return names;
}();

// The shortest text that reads back as `value`, as the page's script writes
// its numbers (0.05, 5).
template <typename Number>
std::string number_text(Number value) {
    std::array<char, 32> text{};
    const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc()) throw std::logic_error("a page constant does not fit its text");
    return std::string(text.data(), end);
}

// The findings besides the wait states, as findings_json() names them.
constexpr std::string_view kCriticalPath[] = {"critical_path", "critical_path_imbalance"};
constexpr std::string_view kImbalance[] = {"critical_imbalance_impact", "intra_partition_imbalance",
                                           "inter_partition_imbalance", "imbalance"};

std::string names_json(std::span<const std::string_view> names) {
    std::string j = "[";
    for (const std::string_view n : names) j += (j.size() > 1 ? "," : "") + json_string(n);
    return j + "]";
}

}  // namespace

std::span<const WaitStateNames> wait_state_names() { return kWaitStates; }

std::vector<std::string_view> finding_metric_names() {
    std::vector<std::string_view> names{"time"};
    for (const WaitStateNames& w : kWaitStates) names.push_back(w.wait);
    names.insert(names.end(), std::begin(kCriticalPath), std::end(kCriticalPath));
    names.push_back("delay");
    names.insert(names.end(), std::begin(kImbalance), std::end(kImbalance));
    return names;
}

std::string findings_json() {
    // As the summary's sections: the critical path and its imbalance against
    // the wall clock (the analyzer's attribute `wallClock`), the imbalance
    // indicators (and Scalasca's computational imbalance) against the total
    // time; the activity graph's predictions, which the analyzer keeps as
    // the attribute `activityGraph`.
    std::string j = "{\"time\":\"time\",\"criticalPath\":" + names_json(kCriticalPath) +
                    ",\"wallClock\":" + json_string(kWallClockAttribute) + ",\"activityGraph\":" +
                    json_string(kActivityGraphAttribute) + ",\"run\":" + json_string(kRunAttribute) +
                    ",\"difference\":" + json_string(kDifferenceAttribute) +
                    ",\"delay\":\"delay\",\"imbalance\":" +
                    names_json(kImbalance) + ",\"waitStates\":[";
    const char* sep = "";
    for (const WaitStateNames& w : kWaitStates) {
        j += sep + ("[" + json_string(w.wait) + "," + json_string(w.short_term_delay) + "," +
                    json_string(w.long_term_delay) + "," + (w.noise_when_small ? "true" : "false") + "]");
        sep = ",";
    }
    return j + "]}";
}

std::string noise_share_text() { return number_text(metrics::kNoiseShare); }

std::string wait_states_shown_text() { return number_text(metrics::kWaitStatesShown); }

}  // namespace hindsight::report
