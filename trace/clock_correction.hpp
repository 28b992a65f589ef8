// Turns a location's raw timestamps into corrected ticks since the trace's
// start. A measurement system records, per location, CLOCK_OFFSET
// definitions: at local time `time` the location's clock was `offset` ticks
// behind the reference clock (reference = local + offset). Between the first
// and the last measurement (usually at MPI_Init and MPI_Finalize) the offset
// is interpolated linearly, which removes constant offsets and linear drift;
// outside it the same line is extended. One measurement is a constant
// offset; none means the clocks are taken as synchronized.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/clock.hpp"

namespace hindsight::trace {

class ClockCorrection {
public:
    // How far, in ticks, a timestamp may lie from the trace's start and an
    // offset from zero: 73 years at 1 GHz. Beyond that the arithmetic below
    // would overflow and silently change every time; the loader refuses
    // such traces instead.
    static constexpr std::uint64_t kMaxDistance = std::uint64_t{1} << 61;

    explicit ClockCorrection(std::uint64_t global_offset = 0) : global_offset_(global_offset) {}

    static bool offset_in_range(std::int64_t offset) {
        return offset >= -static_cast<std::int64_t>(kMaxDistance) &&
               offset <= static_cast<std::int64_t>(kMaxDistance);
    }
    bool in_range(std::uint64_t timestamp) const {
        return timestamp >= global_offset_ ? timestamp - global_offset_ <= kMaxDistance
                                           : global_offset_ - timestamp <= kMaxDistance;
    }

    // Measurements in any order; only the earliest and the latest count.
    void add_offset(std::uint64_t time, std::int64_t offset) {
        if (count_ == 0 || time < first_time_) first_time_ = time, first_offset_ = offset;
        if (count_ == 0 || time >= last_time_) last_time_ = time, last_offset_ = offset;
        ++count_;
    }
    int measurements() const { return count_; }

    // The reference clock's offset at local time `timestamp`.
    std::int64_t offset_at(std::uint64_t timestamp) const {
        if (count_ == 0) return 0;
        if (last_time_ == first_time_) return first_offset_;
        // Differences first: absolute timestamps exceed a double's precision.
        const auto since_first = static_cast<std::int64_t>(timestamp - first_time_);
        const double fraction =
            static_cast<double>(since_first) / static_cast<double>(last_time_ - first_time_);
        return first_offset_ +
               std::llround(fraction * static_cast<double>(last_offset_ - first_offset_));
    }
    // Corrected ticks since the global offset (the trace's start), for a
    // timestamp in_range() and offsets offset_in_range().
    Ticks apply(std::uint64_t timestamp) const {
        return static_cast<Ticks>(timestamp - global_offset_) + offset_at(timestamp);
    }

private:
    std::uint64_t global_offset_;
    int count_ = 0;
    std::uint64_t first_time_ = 0;
    std::int64_t first_offset_ = 0;
    std::uint64_t last_time_ = 0;
    std::int64_t last_offset_ = 0;
};

}  // namespace hindsight::trace
