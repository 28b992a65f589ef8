// Trace timestamps: CLOCK_MONOTONIC in nanoseconds. It never jumps (NTP
// slews it), and the clock offsets measured at MPI_Init and MPI_Finalize
// align the ranks' clocks for the analysis.
#pragma once

#include <cstdint>
#include <ctime>

namespace hindsight::collect {

inline std::uint64_t timestamp() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline constexpr std::uint64_t kTicksPerSecond = 1'000'000'000u;

}  // namespace hindsight::collect

namespace hindsight::collect {

// The CLOCK_REALTIME nanoseconds at which CLOCK_MONOTONIC read `monotonic`
// (for the archive's wall-clock date).
inline std::uint64_t realtime_of(std::uint64_t monotonic) noexcept {
    timespec real{};
    clock_gettime(CLOCK_REALTIME, &real);
    const std::uint64_t now_real =
        static_cast<std::uint64_t>(real.tv_sec) * kTicksPerSecond + static_cast<std::uint64_t>(real.tv_nsec);
    return now_real - (timestamp() - monotonic);
}

}  // namespace hindsight::collect
