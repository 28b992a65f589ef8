// Names and numbers as fields of JSON and CSV text, for every writer of
// such files (the report's page data, the analyzer's and the collector's
// communicator tables): strings are made valid UTF-8 first (names from
// traces are bytes) and escaped so that the text is JSON whatever they hold.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace hindsight {

// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);

// A finite number as JSON; NaN and infinities (which JSON cannot say) as null.
std::string json_number(double value);

// One CSV field (RFC 4180): quoted when it holds a separator, a quote or a
// line break.
std::string csv_field(const std::string& text);

// `values` as a JSON array, each element as `show(value)` writes it.
template <typename T, typename Show>
void json_array(std::ostream& out, const std::vector<T>& values, Show show) {
    out << '[';
    for (std::size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << show(values[i]);
    out << ']';
}

}  // namespace hindsight
