// The analyzer's view of a TraceBuilder scenario, without an archive: each
// rank's LocalTrace (definitions, global call tree, event store) built in
// memory with the event-store conventions of the trace loader, so that the
// analyses can be tested in one process, quickly and independently of MPI.
#pragma once

#include <vector>

#include "trace/local_trace.hpp"
#include "tests/support/trace_builder.hpp"

namespace hindsight::testing {

// One LocalTrace per rank of `builder`, in rank order.
std::vector<trace::LocalTrace> local_traces(const TraceBuilder& builder);

}  // namespace hindsight::testing
