// One section of the analyzer's summary, as tests of the summary read it.
#pragma once

#include <string>

namespace hindsight::testing {

// The summary's lines from `title` up to the next section's title; "" where
// it has no such section.
inline std::string summary_section(const std::string& summary, const std::string& title) {
    const auto begin = summary.find(title + ":\n");
    if (begin == std::string::npos) return "";
    auto end = begin + title.size() + 2;
    while (end < summary.size() && summary[end] == ' ') end = summary.find('\n', end) + 1;
    return summary.substr(begin, end - begin);
}

}  // namespace hindsight::testing
