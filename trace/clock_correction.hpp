// Turns a location's raw timestamps into corrected ticks since the trace's
// start. A measurement system records, per location, CLOCK_OFFSET
// definitions: at local time `time` the location's clock was `offset` ticks
// behind the reference clock (reference = local + offset). Between the first
// and the last measurement (usually at MPI_Init and MPI_Finalize) the offset
// is interpolated linearly, which removes constant offsets and linear drift;
// outside it the same line is extended. One measurement is a constant
// offset; none means the clocks are taken as synchronized.
//
// Every corrected time must lie in the trace's own time span, as its clock
// properties give it (global offset and length), widened by a tolerance
// (window_of() below); a time beyond it, or one whose correction would
// overflow, comes from a damaged timestamp or offset and is refused. All
// arithmetic here is checked: a damaged offset must become an error, never
// an overflow.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "common/clock.hpp"

namespace hindsight::trace {

class ClockCorrection {
public:
    // However long a trace says it is, no corrected time may lie further
    // than this from its start (73 years at 1 GHz): the analyses add and
    // subtract the times of different ranks, which must not overflow.
    static constexpr Ticks kMaxDistance = Ticks{1} << 61;

    // The corrected times a trace allows, in ticks since its global offset.
    struct Window {
        Ticks earliest = -kMaxDistance;
        Ticks latest = kMaxDistance;
        bool holds(Ticks t) const { return t >= earliest && t <= latest; }
    };
    // The trace's span [0, length] widened on both sides by its length, and
    // by at least one second: writers compute the span with a correction of
    // their own (or from raw timestamps), which may differ from ours by the
    // error of an offset measurement, far less than that. A damaged offset
    // or timestamp (a flipped high bit) moves times by hours or years.
    static Window window_of(const ClockProperties& clock) {
        const auto limit = static_cast<std::uint64_t>(kMaxDistance);
        const std::uint64_t length = std::min(clock.trace_length, limit);
        const std::uint64_t margin = std::min(std::max(length, clock.ticks_per_second), limit);
        return {-static_cast<Ticks>(margin), static_cast<Ticks>(std::min(length + margin, limit))};
    }

    // How far a corrected time may fall behind its predecessor on the same
    // location and still be taken for jitter (and raised to it): 10 us, at
    // least one tick. A location's raw clock is monotonic (Score-P and our
    // collector read monotonic timers), and a linear correction keeps it so
    // unless offsets change faster than time; what remains are clocks read
    // on different cores and the error of an offset measurement, a message
    // latency: microseconds. A step back beyond that is a stepped clock or
    // a damaged timestamp, and the times around it are not to be trusted.
    static Ticks jitter_tolerance(const ClockProperties& clock) {
        return std::max<Ticks>(1, static_cast<Ticks>(clock.ticks_per_second / 100'000));
    }

    // Without a window: any time up to kMaxDistance from the start.
    explicit ClockCorrection(std::uint64_t global_offset = 0)
        : ClockCorrection(global_offset, Window{-kMaxDistance, kMaxDistance}) {}
    ClockCorrection(std::uint64_t global_offset, Window window) : global_offset_(global_offset), window_(window) {}

    // A measurement, in any order; only the earliest and the latest count.
    // False (and not kept) when the measurement's own instant, corrected,
    // lies outside the window: the offset or its time is damaged.
    bool add_offset(std::uint64_t time, std::int64_t offset) {
        const auto corrected = instant(time, offset);
        if (!corrected || !window_.holds(*corrected)) return false;
        if (count_ == 0 || time < first_time_) first_time_ = time, first_offset_ = offset;
        if (count_ == 0 || time >= last_time_) last_time_ = time, last_offset_ = offset;
        ++count_;
        return true;
    }
    // The corrected instant of a measurement (at local `time`, `offset`
    // ticks off); nullopt when it does not fit 64 bits.
    std::optional<Ticks> instant(std::uint64_t time, std::int64_t offset) const {
        const auto at = since_start(time);
        Ticks corrected = 0;
        if (!at || __builtin_add_overflow(*at, offset, &corrected)) return std::nullopt;
        return corrected;
    }
    int measurements() const { return count_; }
    const Window& window() const { return window_; }
    std::uint64_t global_offset() const { return global_offset_; }

    // The reference clock's offset at local time `timestamp`; nullopt when
    // it does not fit 64 bits.
    std::optional<std::int64_t> offset_at(std::uint64_t timestamp) const {
        if (count_ == 0) return 0;
        if (last_time_ == first_time_) return first_offset_;
        std::int64_t change = 0;
        if (__builtin_sub_overflow(last_offset_, first_offset_, &change)) return std::nullopt;
        // Differences first: absolute timestamps exceed a double's precision.
        const double since_first = timestamp >= first_time_ ? static_cast<double>(timestamp - first_time_)
                                                            : -static_cast<double>(first_time_ - timestamp);
        const double step =
            since_first / static_cast<double>(last_time_ - first_time_) * static_cast<double>(change);
        if (!(std::fabs(step) < 0x1p62)) return std::nullopt;
        std::int64_t offset = 0;
        if (__builtin_add_overflow(first_offset_, std::llround(step), &offset)) return std::nullopt;
        return offset;
    }
    // Corrected ticks since the global offset (the trace's start), window
    // or not; nullopt when the correction overflows.
    std::optional<Ticks> correct(std::uint64_t timestamp) const {
        const auto at = since_start(timestamp);
        const auto offset = offset_at(timestamp);
        Ticks t = 0;
        if (!at || !offset || __builtin_add_overflow(*at, *offset, &t)) return std::nullopt;
        return t;
    }
    // The same, nullopt also outside the window.
    std::optional<Ticks> apply(std::uint64_t timestamp) const {
        const auto t = correct(timestamp);
        return t && window_.holds(*t) ? t : std::nullopt;
    }

private:
    // `timestamp` - global offset as a signed number, when it is one.
    std::optional<Ticks> since_start(std::uint64_t timestamp) const {
        const auto max = static_cast<std::uint64_t>(INT64_MAX);
        if (timestamp >= global_offset_)
            return timestamp - global_offset_ <= max ? std::optional<Ticks>(static_cast<Ticks>(timestamp - global_offset_))
                                                     : std::nullopt;
        return global_offset_ - timestamp <= max ? std::optional<Ticks>(-static_cast<Ticks>(global_offset_ - timestamp))
                                                 : std::nullopt;
    }

    std::uint64_t global_offset_;
    Window window_;
    int count_ = 0;
    std::uint64_t first_time_ = 0;
    std::int64_t first_offset_ = 0;
    std::uint64_t last_time_ = 0;
    std::int64_t last_offset_ = 0;
};

// How a corrected time (nullopt: beyond 64 bits) misses the window of
// `clock`, for error messages: "lies N ticks from the trace's start, ...".
inline std::string outside_time_span(const ClockProperties& clock, const ClockCorrection::Window& window,
                                     std::optional<Ticks> corrected) {
    return (corrected ? "lies " + std::to_string(*corrected) + " ticks" : std::string("lies beyond 2^63 ticks")) +
           " from the trace's start, outside its time span (global offset " + std::to_string(clock.global_offset) +
           ", length " + std::to_string(clock.trace_length) + " ticks: corrected times from " +
           std::to_string(window.earliest) + " to " + std::to_string(window.latest) +
           " are accepted, never more than 2^61 ticks from the start)";
}

}  // namespace hindsight::trace
