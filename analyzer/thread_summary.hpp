// The summary's section on the threads of a hybrid (MPI + OpenMP) run: how
// much of their time the worker threads idled and while the master ran
// which call path, and how unevenly the threads of a team reached its
// barriers (the barrier waits, the parallel region where they are largest,
// how late the last thread came there, and the work that made it late).
// A report of single-threaded ranks gets no such section.
#pragma once

#include <iosfwd>

#include "common/cube/report.hpp"

namespace hindsight::analyzer {

// Whether any rank of the report has more than one thread.
bool has_threads(const cube::Report& report);

// The section "OpenMP threads", for a report with threads (nothing
// otherwise). `report` holds metric-inclusive values; `total_time` is the
// time summed over all threads, the basis of the summary's percentages.
void print_thread_summary(std::ostream& out, const cube::Report& report, double total_time);

}  // namespace hindsight::analyzer
