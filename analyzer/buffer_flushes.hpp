// The flushes of the trace buffer the measurement recorded. While one lasts
// its rank stands still: the ranks that wait for it wait longer than the
// program made them, and every time after it is shifted. The warnings say
// how many there were and where.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/cube/report.hpp"

namespace hindsight::analyzer {

struct BufferFlushes {
    std::vector<std::pair<std::int64_t, std::uint64_t>> by_rank;  // (rank, flushes), ranks with any, in rank order
    double seconds = 0;  // their time summed over ranks
    std::uint64_t count() const;
};

// From the visits and the overhead time of the report's call paths whose
// region is the buffer flush (either value kind).
BufferFlushes buffer_flushes(const cube::Report& report);

// The warning, "" without flushes.
std::string buffer_flush_warning(const BufferFlushes& flushes);

}  // namespace hindsight::analyzer
