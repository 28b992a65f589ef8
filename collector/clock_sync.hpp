// Offsets of each rank's clock to rank 0's, measured at MPI_Init and at
// MPI_Finalize. The analysis interpolates linearly between the two (OTF2
// CLOCK_OFFSET definitions, as Score-P writes them).
#pragma once

#include <cstdint>

#include <mpi.h>

namespace hindsight::collect {

struct ClockOffset {
    std::uint64_t time = 0;  // local timestamp the offset belongs to
    std::int64_t offset = 0; // add to local time to get rank 0's time
    double deviation = 0;    // half the best round trip: the offset's uncertainty
};

// Collective over `comm`: rank 0 answers `repetitions` pings from every
// other rank with its clock; each rank keeps the exchange with the shortest
// round trip and takes offset = reference - (t_send + t_recv) / 2. Ranks on
// rank 0's host with its timer source share its clock: offset 0. Times and
// offsets are in timer ticks (timer.hpp); between hosts whose timers run at
// different rates the offset changes linearly, which the interpolation
// between the two measurements follows exactly.
ClockOffset measure_clock_offset(MPI_Comm comm, int repetitions = 10);

}  // namespace hindsight::collect

namespace hindsight::collect {

// The offset at local time `t` on the line through two measurements (as
// OTF2 readers interpolate, and extrapolate beyond them).
inline std::int64_t offset_at(const ClockOffset& first, const ClockOffset& last, std::uint64_t t) {
    if (last.time == first.time) return first.offset;
    const double slope = static_cast<double>(last.offset - first.offset) /
                         (static_cast<double>(last.time) - static_cast<double>(first.time));
    return first.offset + static_cast<std::int64_t>(slope * (static_cast<double>(t) - static_cast<double>(first.time)));
}

}  // namespace hindsight::collect
