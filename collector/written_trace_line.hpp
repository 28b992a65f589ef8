// The line rank 0 prints when the trace is complete, with the amounts in
// units a person reads at a glance:
//     wrote 1.2 M events (34 MiB) of 64 ranks to /scratch/run/traces.otf2
#pragma once

#include <cstdint>
#include <string>

namespace hindsight::collect {

// Decimal units (k, M, G, T), one decimal below 10, whole numbers above:
// 812 -> "812", 1234 -> "1.2 k", 34567 -> "35 k", 1.2e6 -> "1.2 M".
std::string event_count_text(std::uint64_t events);
// Powers of 1024: "812 bytes", "1.5 KiB", "34 MiB", "2.0 GiB".
std::string byte_size_text(std::uint64_t bytes);

std::string written_trace_line(std::uint64_t events, std::uint64_t bytes, int ranks, const std::string& anchor);

}  // namespace hindsight::collect
