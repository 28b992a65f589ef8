// The longest wait states of every rank (analyses/longest_waits.hpp),
// gathered on rank 0 for the summary: each rank sends its few kept waits,
// their times already in seconds since the trace's start.
#pragma once

#include <cstddef>
#include <vector>

#include <mpi.h>

#include "analyses/longest_waits.hpp"
#include "analyzer/summary.hpp"
#include "replay/progress_watch.hpp"
#include "trace/local_trace.hpp"

namespace hindsight::analyzer {

// What one rank sends: kWaitFields doubles per wait.
inline constexpr std::size_t kWaitFields = 5;
std::vector<double> encode_waits(const std::vector<analyses::WaitInstance>& waits, const trace::LocalTrace& trace);
// Every rank's waits from what they sent, laid end to end in rank order,
// `counts[r]` doubles from rank r.
std::vector<RankedWait> decode_waits(const std::vector<double>& sent, const std::vector<int>& counts);

// Collective over `world`; the result is filled on rank 0 only.
std::vector<RankedWait> gather_longest_waits(const std::vector<analyses::WaitInstance>& waits,
                                             const trace::LocalTrace& trace, MPI_Comm world,
                                             replay::ProgressWatch& watch);

}  // namespace hindsight::analyzer
