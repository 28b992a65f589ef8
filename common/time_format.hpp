// Times and shares as people read them (the summary, the differences of
// two reports): three significant digits in the unit that suits each value
// (s, ms, µs, ns), so that a microsecond reads "1.00 µs" rather than
// "0.000001 s".
#pragma once

#include <string>

namespace hindsight {

// "0 s", "12.0 ns", "1.00 µs", "340 ms", "2.25 s", "1234 s".
std::string format_seconds(double seconds);

// A moment in a timeline, in seconds to the microsecond: "2.400000 s".
std::string format_timestamp(double seconds);

// A share of one (0.5) as a percentage: "50.0 %".
std::string format_percent(double share);

}  // namespace hindsight
