#include "collector/timer.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace hindsight::collect {

TimerSource Timer::source_ = TimerSource::Monotonic;

namespace {

// CPUID leaf 0x80000007, EDX bit 8: the TSC runs at a constant rate in
// every P-, C- and T-state.
bool invariant_tsc() noexcept {
#if defined(__x86_64__)
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(0x80000000u, &a, &b, &c, &d) == 0 || a < 0x80000007u) return false;
    if (__get_cpuid(0x80000007u, &a, &b, &c, &d) == 0) return false;
    return (d & (1u << 8)) != 0;
#else
    return false;
#endif
}

// The kernel drops "tsc" as its clocksource when it finds the CPUs'
// counters unsynchronized or unstable.
bool kernel_clock_is_tsc() noexcept {
    std::FILE* f = std::fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f) return false;
    char name[32] = {};
    const bool read = std::fgets(name, sizeof name, f) != nullptr;
    std::fclose(f);
    return read && std::strcmp(name, "tsc\n") == 0;
}

}  // namespace

bool tsc_usable() noexcept { return invariant_tsc() && kernel_clock_is_tsc(); }

void Timer::select(bool force_monotonic) noexcept {
    source_ = !force_monotonic && tsc_usable() ? TimerSource::Tsc : TimerSource::Monotonic;
}

TimerSample Timer::sample() noexcept {
    if (source_ == TimerSource::Monotonic) {
        const std::uint64_t ns = monotonic_ns();
        return {ns, ns};
    }
    // CLOCK_MONOTONIC between two timer readings: the pair with the
    // narrowest bracket pins the moment best (to a few ns).
    TimerSample best;
    std::uint64_t best_width = ~std::uint64_t{0};
    for (int i = 0; i < 5; ++i) {
        const std::uint64_t before = now();
        const std::uint64_t ns = monotonic_ns();
        const std::uint64_t after = now();
        if (after - before < best_width) {
            best_width = after - before;
            best = {before + (after - before) / 2, ns};
        }
    }
    return best;
}

std::uint64_t ticks_per_second(TimerSource source, TimerSample first, TimerSample last) noexcept {
    if (source == TimerSource::Monotonic || last.ns <= first.ns || last.ticks <= first.ticks) {
        return kNanosecondsPerSecond;
    }
    // long double has a 64-bit mantissa: both differences enter exactly; the
    // rate is rounded to the nearest tick per second.
    const long double ticks = static_cast<long double>(last.ticks - first.ticks);
    const long double ns = static_cast<long double>(last.ns - first.ns);
    return static_cast<std::uint64_t>(std::llroundl(ticks * kNanosecondsPerSecond / ns));
}

std::uint64_t realtime_of(std::uint64_t ticks, std::uint64_t rate) noexcept {
    timespec real{};
    clock_gettime(CLOCK_REALTIME, &real);
    const std::uint64_t now_ticks = Timer::now();
    const std::uint64_t now_real =
        static_cast<std::uint64_t>(real.tv_sec) * kNanosecondsPerSecond + static_cast<std::uint64_t>(real.tv_nsec);
    const long double ago_ticks = now_ticks > ticks ? static_cast<long double>(now_ticks - ticks) : 0.0L;
    return now_real - static_cast<std::uint64_t>(ago_ticks * kNanosecondsPerSecond / static_cast<long double>(rate));
}

}  // namespace hindsight::collect
