// The analyzer's view of a TraceBuilder scenario: each rank's LocalTrace
// (definitions, global call tree, event store), read by the analyzer's own
// loader from the archive the builder writes, so that the analyses can be
// tested in one process, quickly and independently of MPI, on exactly what
// the analyzer would see.
#pragma once

#include <vector>

#include "trace/local_trace.hpp"
#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

// One LocalTrace per rank of `builder`, in rank order.
std::vector<trace::LocalTrace> local_traces(const TraceBuilder& builder);

}  // namespace hindsight::testing
