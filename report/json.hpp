// JSON text for the page's data and for `hindsight-report --json`: strings
// are made valid UTF-8 first (names from traces are bytes) and escaped so
// that the text is JSON whatever they hold.
#pragma once

#include <string>
#include <string_view>

namespace hindsight::report {

// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);

// A finite number as JSON; NaN and infinities (which JSON cannot say) as null.
std::string json_number(double value);

}  // namespace hindsight::report
