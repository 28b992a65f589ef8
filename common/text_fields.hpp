// Names and numbers as fields of JSON and CSV text, for every writer of
// such files (the report's page data, the analyzer's and the collector's
// communicator tables): strings are made valid UTF-8 first (names from
// traces are bytes) and escaped so that the text is JSON whatever they hold.
#pragma once

#include <string>
#include <string_view>

namespace hindsight {

// `text` as a JSON string literal, quotes included.
std::string json_string(std::string_view text);

// A finite number as JSON; NaN and infinities (which JSON cannot say) as null.
std::string json_number(double value);

// One CSV field (RFC 4180): quoted when it holds a separator, a quote or a
// line break.
std::string csv_field(const std::string& text);

}  // namespace hindsight
