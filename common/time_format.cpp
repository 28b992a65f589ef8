#include "common/time_format.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace hindsight {
namespace {

struct TimeUnit {
    double per_second;
    const char* name;
};

// Largest first. A value is shown in the first unit in which it reads at
// least 1 after rounding to three digits (0.9996 ms is "1.00 ms", not
// "1000 µs").
constexpr std::array<TimeUnit, 4> kUnits{{{1.0, "s"}, {1e3, "ms"}, {1e6, "µs"}, {1e9, "ns"}}};
constexpr double kRoundsToOne = 0.9995;

std::string printed(const char* fmt, double value, const char* unit) {
    char text[64];
    std::snprintf(text, sizeof text, fmt, value, unit);
    return text;
}

}  // namespace

std::string format_seconds(double seconds) {
    if (seconds == 0.0 || !std::isfinite(seconds)) return printed("%.0f %s", seconds, "s");
    const TimeUnit* unit = &kUnits.back();
    for (const TimeUnit& u : kUnits)
        if (std::fabs(seconds) * u.per_second >= kRoundsToOne) {
            unit = &u;
            break;
        }
    const double scaled = seconds * unit->per_second;
    const double magnitude = std::fabs(scaled);
    const char* fmt = magnitude >= 99.95 ? "%.0f %s" : magnitude >= 9.995 ? "%.1f %s" : "%.2f %s";
    return printed(fmt, scaled, unit->name);
}

std::string format_timestamp(double seconds) { return printed("%.6f %s", seconds, "s"); }

std::string format_percent(double share) {
    // A share that rounds to 0.0 prints without a sign ("-0.0 %" would
    // claim a change the digits do not show).
    const double percent = std::fabs(100.0 * share) < 0.05 ? 0.0 : 100.0 * share;
    return printed("%.1f %s", percent, "%");
}

}  // namespace hindsight
