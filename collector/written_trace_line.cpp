#include "collector/written_trace_line.hpp"

#include <array>
#include <cmath>
#include <cstdio>

namespace hindsight::collect {

namespace {

// `value` in the largest of `units` (each `base` times the one before) that
// keeps it at least 1; the first unit is the plain count.
template <std::size_t N>
std::string scaled(std::uint64_t value, double base, const std::array<const char*, N>& units) {
    if (value < base) return std::to_string(value) + units[0];
    double amount = static_cast<double>(value);
    std::size_t unit = 0;
    while (unit + 1 < N && amount >= base) {
        amount /= base;
        ++unit;
    }
    // Rounding may carry into the next unit (999.7 k is 1.0 M).
    if (std::round(amount) >= base && unit + 1 < N) {
        amount /= base;
        ++unit;
    }
    char text[32];
    if (std::round(amount * 10) < 100) std::snprintf(text, sizeof text, "%.1f", amount);
    else std::snprintf(text, sizeof text, "%.0f", amount);
    return text + std::string(units[unit]);
}

}  // namespace

std::string event_count_text(std::uint64_t events) {
    return scaled(events, 1000.0, std::array<const char*, 5>{"", " k", " M", " G", " T"});
}

std::string byte_size_text(std::uint64_t bytes) {
    return scaled(bytes, 1024.0, std::array<const char*, 5>{" bytes", " KiB", " MiB", " GiB", " TiB"});
}

std::string written_trace_line(std::uint64_t events, std::uint64_t bytes, int ranks, const std::string& anchor) {
    return "wrote " + event_count_text(events) + " events (" + byte_size_text(bytes) + ") of " +
           std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + " to " + anchor;
}

}  // namespace hindsight::collect
