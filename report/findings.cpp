#include "report/findings.hpp"

#include <array>
#include <cstddef>
#include <string>

#include "common/wait_patterns.hpp"
#include "report/json.hpp"

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

}  // namespace

std::span<const WaitStateNames> wait_state_names() { return kWaitStates; }

std::string findings_json() {
    std::string j = "{\"time\":\"time\",\"criticalPath\":\"critical_path\",\"delay\":\"delay\","
                    "\"imbalance\":[\"critical_path_imbalance\",\"imbalance\"],\"waitStates\":[";
    const char* sep = "";
    for (const WaitStateNames& w : kWaitStates) {
        j += sep + ("[" + json_string(w.wait) + "," + json_string(w.short_term_delay) + "," +
                    json_string(w.long_term_delay) + "," + (w.noise_when_small ? "true" : "false") + "]");
        sep = ",";
    }
    return j + "]}";
}

}  // namespace hindsight::report
