// Trace time: OTF2 timestamps are ticks of a clock whose resolution and
// origin the archive's clock properties define. Hindsight keeps ticks as
// integers everywhere (exact differences, no drift from rounding) and turns
// them into seconds only where a value leaves the analysis.
#pragma once

#include <cstdint>

namespace hindsight {

using Ticks = std::int64_t;

struct ClockProperties {
    std::uint64_t ticks_per_second = 1'000'000'000;  // 1 ns resolution
    std::uint64_t global_offset = 0;                 // tick value of the trace's start
    std::uint64_t trace_length = 0;                  // ticks from start to end

    // Seconds that a span of `ticks` lasts.
    double seconds(Ticks ticks) const {
        return static_cast<double>(ticks) / static_cast<double>(ticks_per_second);
    }
    // Seconds from the trace's start to the absolute timestamp `timestamp`.
    double seconds_since_start(std::uint64_t timestamp) const {
        return seconds(static_cast<Ticks>(timestamp - global_offset));
    }
    // Ticks that `s` seconds last, rounded to the nearest tick.
    Ticks ticks(double s) const {
        const double t = s * static_cast<double>(ticks_per_second);
        return static_cast<Ticks>(t < 0 ? t - 0.5 : t + 0.5);
    }
};

}  // namespace hindsight
