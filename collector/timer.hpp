// Trace timestamps. Two sources, chosen once when the library loads:
//
//  - the CPU's time-stamp counter (one rdtsc instruction, a few ns), where
//    the CPU has an invariant TSC (constant rate, running in every power
//    state) and the kernel keeps CLOCK_MONOTONIC on it (it does so only
//    after checking that the CPUs' counters are synchronized, so a thread
//    that migrates between CPUs reads one clock);
//  - CLOCK_MONOTONIC nanoseconds otherwise, or when HINDSIGHT_TIMER=monotonic
//    forces it (tens of ns per reading through the vDSO).
//
// Timestamps are the source's raw ticks. The TSC's rate is measured against
// CLOCK_MONOTONIC between the library's load and MPI_Finalize and written
// as the trace's timer resolution (as Score-P does), so that the trace
// holds the very values read in the wrappers and nothing is rounded.
#pragma once

#include <cstdint>
#include <ctime>

namespace hindsight::collect {

inline constexpr std::uint64_t kNanosecondsPerSecond = 1'000'000'000u;

enum class TimerSource : std::uint8_t { Tsc, Monotonic };

inline std::uint64_t monotonic_ns() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * kNanosecondsPerSecond + static_cast<std::uint64_t>(ts.tv_nsec);
}

// A reading of the timer and of CLOCK_MONOTONIC at the same moment.
struct TimerSample {
    std::uint64_t ticks = 0;
    std::uint64_t ns = 0;
};

// Timer ticks per second from two samples (exactly 1e9 for CLOCK_MONOTONIC).
std::uint64_t ticks_per_second(TimerSource source, TimerSample first, TimerSample last) noexcept;

// True when this CPU and kernel offer a TSC that is safe to use (see above).
bool tsc_usable() noexcept;

// Hidden: the wrappers reach the source without a detour through the GOT.
class __attribute__((visibility("hidden"))) Timer {
public:
    // Chooses the source (the TSC where usable, unless `force_monotonic`).
    static void select(bool force_monotonic) noexcept;
    static TimerSource source() noexcept { return source_; }

    static std::uint64_t now() noexcept {
#if defined(__x86_64__)
        if (source_ == TimerSource::Tsc) return __builtin_ia32_rdtsc();
#endif
        return monotonic_ns();
    }
    // A pair of readings as close together as a few tries get them.
    static TimerSample sample() noexcept;

private:
    static TimerSource source_;
};

inline std::uint64_t timestamp() noexcept { return Timer::now(); }

// CLOCK_REALTIME nanoseconds at timer reading `ticks` of a timer that runs
// at `rate` ticks per second (for the archive's wall-clock date).
std::uint64_t realtime_of(std::uint64_t ticks, std::uint64_t rate) noexcept;

}  // namespace hindsight::collect
